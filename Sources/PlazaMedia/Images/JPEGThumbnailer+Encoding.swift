import Foundation
import PlazaCore

// The thumbnail's second half: from the decoded 1/8-scale picture to the tile's size, and a baseline JPEG of it.

// MARK: - Resampling

/// From the 1/8-scale picture to the thumbnail's size: an area average when shrinking, bilinear when (for originals
/// under 8× the size) the 1/8 picture is smaller than the thumbnail.
enum Resampler {
    /// For each output sample along one axis, the source samples it reads and their weights: those of output `n` are
    /// at `first[n]..<first[n + 1]` in `sources` and `weights` (flat arrays keep debug builds quick).
    struct Taps {
        var first: [Int] = [0]
        var sources: [Int] = []
        var weights: [Float] = []

        mutating func add(_ source: Int, _ weight: Float) {
            sources.append(source)
            weights.append(weight)
        }

        mutating func endOutput() {
            first.append(sources.count)
        }
    }

    static func resample(_ image: EighthScaleImage, width: Int, height: Int) -> [UInt8] {
        let channels = image.channels
        // The 1/8 picture's true extent: its last pixel may stand for a partial block.
        let columns = taps(output: width, extent: Double(image.width) / 8, count: image.scaledWidth)
        let rows = taps(output: height, extent: Double(image.height) / 8, count: image.scaledHeight)
        let sourceLine = image.scaledWidth * channels
        let line = width * channels
        var horizontal = [Float](repeating: 0, count: image.scaledHeight * line)
        for y in 0..<image.scaledHeight {
            for x in 0..<width {
                for tap in columns.first[x]..<columns.first[x + 1] {
                    let source = y * sourceLine + columns.sources[tap] * channels
                    let weight = columns.weights[tap]
                    for channel in 0..<channels {
                        horizontal[y * line + x * channels + channel] += weight * Float(image.samples[source + channel])
                    }
                }
            }
        }
        var vertical = [Float](repeating: 0, count: height * line)
        for y in 0..<height {
            for tap in rows.first[y]..<rows.first[y + 1] {
                let source = rows.sources[tap] * line
                let weight = rows.weights[tap]
                for index in 0..<line { vertical[y * line + index] += weight * horizontal[source + index] }
            }
        }
        return vertical.map { UInt8(max(0, min(255, $0.rounded()))) }
    }

    /// The taps along one axis: `output` samples from `count` source samples that span `extent` (≤ count).
    static func taps(output: Int, extent: Double, count: Int) -> Taps {
        let scale = extent / Double(output)
        let last = count - 1
        var taps = Taps()
        for position in 0..<output {
            if scale >= 1 {
                // Shrinking: the average of the source area the output sample covers.
                let start = Double(position) * scale
                let end = Double(position + 1) * scale
                var index = Int(start)
                while Double(index) < end {
                    let overlap = min(end, Double(index + 1)) - max(start, Double(index))
                    if overlap > 0 { taps.add(min(index, last), Float(overlap / scale)) }
                    index += 1
                }
            } else {
                // Enlarging: between the two nearest source samples, centres aligned.
                let center = max(0, (Double(position) + 0.5) * scale - 0.5)
                let index = Int(center)
                let fraction = Float(center - Double(index))
                taps.add(min(index, last), 1 - fraction)
                taps.add(min(index + 1, last), fraction)
            }
            taps.endOutput()
        }
        return taps
    }
}

// MARK: - Encoding

/// A baseline JPEG: JFIF, the standard (Annex K) tables with libjpeg's quality scaling, 4:2:0 YCbCr or grayscale.
enum BaselineEncoder {
    /// Zigzag position → row-major position within a block.
    static let zigzag = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14,
        21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54,
        47, 55, 62, 63,
    ]
    /// Annex K.1's tables, row-major.
    static let luminanceQuantization = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29,
        51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92,
        95, 98, 112, 100,
        103, 99,
    ]
    static let chrominanceQuantization: [Int] =
        [
            17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99,
            99,
        ]
        + [Int](repeating: 99, count: 36)
    /// Annex K.3's tables: code counts by length 1–16, then the symbols.
    static let dcLuminance = (counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: [UInt8](0...11))
    static let dcChrominance = (counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: [UInt8](0...11))
    static let acLuminance = (
        counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 125],
        symbols: [
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71,
            0x14, 0x32, 0x81, 0x91,
            0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16,
            0x17, 0x18, 0x19, 0x1A,
            0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47,
            0x48, 0x49, 0x4A, 0x53,
            0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75,
            0x76, 0x77, 0x78, 0x79,
            0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A,
            0xA2, 0xA3, 0xA4, 0xA5,
            0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
            0xC6, 0xC7, 0xC8, 0xC9,
            0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8,
            0xE9, 0xEA, 0xF1, 0xF2,
            0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
        ] as [UInt8]
    )
    static let acChrominance = (
        counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 119],
        symbols: [
            0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22,
            0x32, 0x81, 0x08, 0x14,
            0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0, 0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34,
            0xE1, 0x25, 0xF1, 0x17,
            0x18, 0x19, 0x1A, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46,
            0x47, 0x48, 0x49, 0x4A,
            0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74,
            0x75, 0x76, 0x77, 0x78,
            0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98,
            0x99, 0x9A, 0xA2, 0xA3,
            0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3,
            0xC4, 0xC5, 0xC6, 0xC7,
            0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7,
            0xE8, 0xE9, 0xEA, 0xF2,
            0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
        ] as [UInt8]
    )
    /// The cosine basis with JPEG's normalization folded in: row u is C(u)/2 · cos((2x + 1)uπ/16).
    static let basis: [Float] = (0..<64).map { index in
        let frequency = Double(index / 8)
        let x = Double(index % 8)
        let normalization = index < 8 ? 1 / 2.0.squareRoot() : 1
        return Float(normalization / 2 * cos((2 * x + 1) * frequency * Double.pi / 16))
    }

    /// libjpeg's quality scaling: 50 is the tables as printed, 100 all ones, lower qualities coarser.
    static func scaled(_ table: [Int], quality: Int) -> [Int] {
        let quality = max(1, min(100, quality))
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        return table.map { max(1, min(255, ($0 * scale + 50) / 100)) }
    }

    /// Codes by symbol: (code, length), from counts by length (the canonical Huffman code JPEG uses).
    static func codes(_ table: (counts: [Int], symbols: [UInt8])) -> [(code: Int, length: Int)] {
        var codes = [(code: Int, length: Int)](repeating: (0, 0), count: 256)
        var code = 0
        var index = 0
        for length in 1...16 {
            for _ in 0..<table.counts[length - 1] {
                codes[Int(table.symbols[index])] = (code, length)
                code += 1
                index += 1
            }
            code <<= 1
        }
        return codes
    }

    static func encode(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        channels: Int,
        quality: Int,
        exif: [UInt8]?
    ) -> [UInt8] {
        let color = channels == 3
        let luminance = scaled(luminanceQuantization, quality: quality)
        let chrominance = scaled(chrominanceQuantization, quality: quality)
        var output: [UInt8] = [0xFF, 0xD8]
        output +=
            [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        if let exif { output += exif }
        // DQT lists each table in zigzag order.
        output += [0xFF, 0xDB] + bigEndian(2 + 65 * (color ? 2 : 1)) + [0x00] + zigzag.map { UInt8(luminance[$0]) }
        if color { output += [0x01] + zigzag.map { UInt8(chrominance[$0]) } }
        output +=
            [0xFF, 0xC0] + bigEndian(8 + 3 * channels) + [0x08] + bigEndian(height) + bigEndian(width) + [
                UInt8(channels)
            ]
        output += color ? [0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01] : [0x01, 0x11, 0x00]
        let tables =
            color
            ? [(0x00, dcLuminance), (0x10, acLuminance), (0x01, dcChrominance), (0x11, acChrominance)]
            : [(0x00, dcLuminance), (0x10, acLuminance)]
        var huffman: [UInt8] = []
        for (slot, table) in tables { huffman += [UInt8(slot)] + table.counts.map { UInt8($0) } + table.symbols }
        output += [0xFF, 0xC4] + bigEndian(2 + huffman.count) + huffman
        output += [0xFF, 0xDA] + bigEndian(6 + 2 * channels) + [UInt8(channels)]
        output += (color ? [0x01, 0x00, 0x02, 0x11, 0x03, 0x11] : [0x01, 0x00]) + [0x00, 0x3F, 0x00]

        var writer = BitWriter()
        writer.bytes.reserveCapacity(width * height / 2)
        let luma = Coder(quantization: luminance, dc: codes(dcLuminance), ac: codes(acLuminance))
        if color {
            let chroma = Coder(quantization: chrominance, dc: codes(dcChrominance), ac: codes(acChrominance))
            let planes = colorPlanes(pixels, width: width, height: height)
            var predictors = [0, 0, 0]
            for mcuY in stride(from: 0, to: height, by: 16) {
                for mcuX in stride(from: 0, to: width, by: 16) {
                    for (dy, dx) in [(0, 0), (0, 8), (8, 0), (8, 8)] {
                        let block = samples(planes.luma, width: width, height: height, x: mcuX + dx, y: mcuY + dy)
                        luma.encode(block, predictor: &predictors[0], into: &writer)
                    }
                    for (index, plane) in [planes.blue, planes.red].enumerated() {
                        let block = samples(
                            plane,
                            width: planes.chromaWidth,
                            height: planes.chromaHeight,
                            x: mcuX / 2,
                            y: mcuY / 2
                        )
                        chroma.encode(block, predictor: &predictors[index + 1], into: &writer)
                    }
                }
            }
        } else {
            let plane = pixels.map { Float($0) - 128 }
            var predictor = 0
            for y in stride(from: 0, to: height, by: 8) {
                for x in stride(from: 0, to: width, by: 8) {
                    luma.encode(
                        samples(plane, width: width, height: height, x: x, y: y),
                        predictor: &predictor,
                        into: &writer
                    )
                }
            }
        }
        writer.flush()
        return output + writer.bytes + [0xFF, 0xD9]
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// Level-shifted Y at full size, Cb and Cr averaged over 2×2 pixels (4:2:0).
    static func colorPlanes(
        _ pixels: [UInt8],
        width: Int,
        height: Int
    ) -> (
        luma: [Float], blue: [Float], red: [Float], chromaWidth: Int, chromaHeight: Int
    ) {
        var luma = [Float](repeating: 0, count: width * height)
        var blueFull = [Float](repeating: 0, count: width * height)
        var redFull = [Float](repeating: 0, count: width * height)
        for index in 0..<(width * height) {
            let red = Float(pixels[3 * index])
            let green = Float(pixels[3 * index + 1])
            let blue = Float(pixels[3 * index + 2])
            luma[index] = 0.299 * red + 0.587 * green + 0.114 * blue - 128
            blueFull[index] = -0.168_735_9 * red - 0.331_264_1 * green + 0.5 * blue
            redFull[index] = 0.5 * red - 0.418_687_6 * green - 0.081_312_4 * blue
        }
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        var blue = [Float](repeating: 0, count: chromaWidth * chromaHeight)
        var red = [Float](repeating: 0, count: chromaWidth * chromaHeight)
        for y in 0..<chromaHeight {
            let top = 2 * y * width
            let bottom = min(2 * y + 1, height - 1) * width
            for x in 0..<chromaWidth {
                let left = 2 * x
                let right = min(2 * x + 1, width - 1)
                blue[y * chromaWidth + x] =
                    (blueFull[top + left] + blueFull[top + right] + blueFull[bottom + left] + blueFull[bottom + right])
                    / 4
                red[y * chromaWidth + x] =
                    (redFull[top + left] + redFull[top + right] + redFull[bottom + left] + redFull[bottom + right]) / 4
            }
        }
        return (luma, blue, red, chromaWidth, chromaHeight)
    }

    /// An 8×8 block at (x, y); past the right or bottom edge the last column or row repeats.
    static func samples(_ plane: [Float], width: Int, height: Int, x: Int, y: Int) -> [Float] {
        var block = [Float](repeating: 0, count: 64)
        for row in 0..<8 {
            let line = min(y + row, height - 1) * width
            for column in 0..<8 { block[row * 8 + column] = plane[line + min(x + column, width - 1)] }
        }
        return block
    }
}
