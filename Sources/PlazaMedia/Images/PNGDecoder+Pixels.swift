import Foundation
import PlazaCore

extension PNGDecoder {
    /// From inflated scanlines to 8-bit pixels: undoes each row's filter, then unpacks, scales and places the samples.
    struct PixelConverter {
        let header: Header
        /// RGB triples, and the alpha of the first entries when tRNS gave them.
        let palette: [UInt8]
        let paletteAlpha: [UInt8]
        /// The tRNS colour key of a gray or RGB picture, as 16-bit samples: pixels of exactly this colour are transparent.
        let key: [Int]?
        let channels: Int

        init(header: Header, palette: [UInt8]?, transparency: [UInt8]?) {
            self.header = header
            self.palette = palette ?? []
            if header.colorType == 3 {
                paletteAlpha = transparency ?? []
                key = nil
            } else {
                paletteAlpha = []
                key = transparency.map { bytes in
                    stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
                }
            }
            switch header.colorType {
            case 0: channels = key == nil ? 1 : 2
            case 2: channels = key == nil ? 3 : 4
            case 3: channels = transparency == nil ? 3 : 4
            default: channels = header.fileChannels
            }
        }

        /// `raw` is unfiltered in place; when its rows are already the answer (8-bit gray, gray + alpha, RGB or RGBA, not
        /// interlaced: most PNGs) they are closed up over the filter bytes and returned without another copy.
        func image(from raw: inout [UInt8]) throws -> PNGImage {
            let header = header
            let width = header.width
            let height = header.height
            let bytesPerPixel = max(1, header.bitsPerPixel / 8)
            let passes = header.passes
            var offsets: [Int] = []
            var offset = 0
            try raw.withUnsafeMutableBufferPointer { buffer in
                for pass in passes {
                    let size = header.passSize(pass)
                    offsets.append(offset)
                    guard size.width > 0 else { continue }
                    let rowBytes = header.rowBytes(width: size.width)
                    try Self.unfilter(
                        buffer.baseAddress! + offset,
                        rows: size.height,
                        rowBytes: rowBytes,
                        bytesPerPixel: bytesPerPixel
                    )
                    offset += size.height * (rowBytes + 1)
                }
            }
            if header.bitDepth == 8, !header.interlaced, header.colorType != 3, channels == header.fileChannels {
                let rowBytes = width * channels
                raw.withUnsafeMutableBufferPointer { buffer in
                    let base = buffer.baseAddress!
                    for row in 0..<height { memmove(base + row * rowBytes, base + row * (rowBytes + 1) + 1, rowBytes) }
                }
                raw.removeLast(height)
                return PNGImage(width: width, height: height, channels: channels, samples: raw)
            }
            var samples = [UInt8](repeating: 0, count: width * height * channels)
            try raw.withUnsafeBufferPointer { source in
                try samples.withUnsafeMutableBufferPointer { output in
                    for (pass, start) in zip(passes, offsets) {
                        let size = header.passSize(pass)
                        guard size.width > 0 else { continue }
                        let rowBytes = header.rowBytes(width: size.width)
                        for row in 0..<size.height {
                            let line = source.baseAddress! + start + row * (rowBytes + 1) + 1
                            let first = ((pass.y + row * pass.dy) * width + pass.x) * channels
                            try convert(
                                line,
                                count: size.width,
                                into: output.baseAddress! + first,
                                step: pass.dx * channels
                            )
                        }
                    }
                }
            }
            return PNGImage(width: width, height: height, channels: channels, samples: samples)
        }

        /// One row of `count` pixels, written `step` bytes apart.
        func convert(
            _ line: UnsafePointer<UInt8>,
            count: Int,
            into output: UnsafeMutablePointer<UInt8>,
            step: Int
        ) throws {
            let depth = header.bitDepth
            let fileChannels = header.fileChannels
            // Samples under 8 bits are packed from the high bits of each byte; gray ones are scaled to 0–255 (a 1-bit 1 is 255).
            let mask = (1 << depth) - 1
            let scale = depth < 8 ? 255 / mask : 1
            func sample(_ index: Int) -> Int {
                switch depth {
                case 8: return Int(line[index])
                case 16: return Int(line[2 * index]) << 8 | Int(line[2 * index + 1])
                default:
                    let bit = index * depth
                    return Int(line[bit >> 3]) >> (8 - depth - bit & 7) & mask
                }
            }
            var pixel = output
            for x in 0..<count {
                if header.colorType == 3 {
                    let index = sample(x)
                    guard 3 * index < palette.count else { throw Failure.damaged }
                    pixel[0] = palette[3 * index]
                    pixel[1] = palette[3 * index + 1]
                    pixel[2] = palette[3 * index + 2]
                    if channels == 4 { pixel[3] = index < paletteAlpha.count ? paletteAlpha[index] : 255 }
                } else {
                    var transparent = key != nil
                    for channel in 0..<fileChannels {
                        let value = sample(x * fileChannels + channel)
                        if let key, key[channel] != value { transparent = false }
                        // 16-bit samples are rounded to the nearest 8-bit value (value / 257), not just truncated.
                        pixel[channel] = UInt8(
                            truncatingIfNeeded: depth == 16 ? (value * 255 + 32895) >> 16 : value * scale
                        )
                    }
                    if key != nil { pixel[fileChannels] = transparent ? 0 : 255 }
                }
                pixel += step
            }
        }

        /// Undoes the filters row by row, in place: `rows` rows of a filter-type byte then `rowBytes` bytes, each filtered
        /// against the pixel to its left (`bytesPerPixel` back) and the row above as already unfiltered.
        static func unfilter(_ start: UnsafeMutablePointer<UInt8>, rows: Int, rowBytes: Int, bytesPerPixel: Int) throws
        {
            let left = bytesPerPixel
            for row in 0..<rows {
                let line = start + row * (rowBytes + 1) + 1
                let filter = line[-1]
                // The first row's "row above" is zeros: Up is then None, Average halves the left, Paeth is Sub.
                guard row > 0 else {
                    switch filter {
                    case 0, 2: continue
                    case 1, 4: for index in left..<max(left, rowBytes) { line[index] &+= line[index - left] }
                    case 3: for index in left..<max(left, rowBytes) { line[index] &+= line[index - left] >> 1 }
                    default: throw Failure.damaged
                    }
                    continue
                }
                let above = UnsafePointer(line - rowBytes - 1)
                switch filter {
                case 0: continue
                case 1: for index in left..<max(left, rowBytes) { line[index] &+= line[index - left] }
                case 2: for index in 0..<rowBytes { line[index] &+= above[index] }
                case 3:
                    for index in 0..<min(left, rowBytes) { line[index] &+= above[index] >> 1 }
                    for index in left..<max(left, rowBytes) {
                        line[index] &+= UInt8((UInt16(line[index - left]) + UInt16(above[index])) >> 1)
                    }
                case 4:
                    for index in 0..<min(left, rowBytes) { line[index] &+= above[index] }
                    for index in left..<max(left, rowBytes) {
                        line[index] &+= paeth(line[index - left], above[index], above[index - left])
                    }
                default: throw Failure.damaged
                }
            }
        }

        /// The neighbour closest to left + above − upper-left, ties going to left, then above.
        @inline(__always) static func paeth(_ left: UInt8, _ above: UInt8, _ upperLeft: UInt8) -> UInt8 {
            let a = Int(left)
            let b = Int(above)
            let c = Int(upperLeft)
            let distanceA = abs(b - c)
            let distanceB = abs(a - c)
            let distanceC = abs(a + b - 2 * c)
            if distanceA <= distanceB && distanceA <= distanceC { return left }
            return distanceB <= distanceC ? above : upperLeft
        }
    }
}
