import Foundation
import PlazaCore

// The thumbnail's first half: a JPEG's blocks decoded to their averages (the picture at 1/8 scale).

// Reads a JPEG's markers, then its scans' DC coefficients, into the 1/8-scale picture.
struct DCDecoder {
    /// More than this many pixels is refused: phone photos stay far below, and DC storage grows with it.
    static let maximumPixels = 1 << 28

    let bytes: [UInt8]
    var quantDC: [Int?] = [nil, nil, nil, nil]
    var dcTables: [HuffmanTable?] = [nil, nil, nil, nil]
    var acTables: [HuffmanTable?] = [nil, nil, nil, nil]
    var restartInterval = 0
    var exif: [UInt8]?
    /// Adobe APP14's colour transform: 0 means three components are RGB rather than YCbCr.
    var adobeTransform: Int?
    var width = 0
    var height = 0
    var progressive = false
    var maxHorizontal = 1
    var maxVertical = 1
    var components: [FrameComponent] = []
    var coefficients: [Int32] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func decode(onlyIfLongerThan limit: Int) -> EighthScaleImage? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while true {
            guard position < bytes.count, bytes[position] == 0xFF else { return nil }
            // Any number of 0xFF fill bytes may precede a marker.
            while position < bytes.count, bytes[position] == 0xFF { position += 1 }
            guard position < bytes.count else { return nil }
            let marker = bytes[position]
            position += 1
            switch marker {
            case 0xD9:
                return finish()
            case 0x01, 0xD0...0xD7:
                continue  // stand-alone markers
            case 0x00, 0xD8:
                return nil
            default:
                break
            }
            guard position + 2 <= bytes.count else { return nil }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2, length <= bytes.count - position else { return nil }
            let next = position + length
            let segment = Array(bytes[(position + 2)..<next])
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard components.isEmpty, readFrame(segment, progressive: marker == 0xC2) else { return nil }
                if max(width, height) <= limit { return nil }
            case 0xC3, 0xC5...0xCB, 0xCD...0xCF:
                return nil  // lossless, hierarchical, arithmetic coding
            case 0xC4:
                guard readHuffmanTables(segment) else { return nil }
            case 0xDB:
                guard readQuantizationTables(segment) else { return nil }
            case 0xDD:
                guard segment.count >= 2 else { return nil }
                restartInterval = Int(segment[0]) << 8 | Int(segment[1])
            case 0xE1:
                if exif == nil, segment.starts(with: Array("Exif\0\0".utf8)) {
                    exif = Array(bytes[(position - 2)..<next])
                }
            case 0xEE:
                if segment.count >= 12, segment.starts(with: Array("Adobe".utf8)) { adobeTransform = Int(segment[11]) }
            case 0xDA:
                guard let end = readScan(segment, dataStart: next) else { return nil }
                position = end
                continue
            default:
                break  // other application data, comments
            }
            position = next
        }
    }

    private mutating func readFrame(_ segment: [UInt8], progressive: Bool) -> Bool {
        guard segment.count >= 6, segment[0] == 8 else { return false }  // 12-bit samples are not read
        let height = Int(segment[1]) << 8 | Int(segment[2])
        let width = Int(segment[3]) << 8 | Int(segment[4])
        let count = Int(segment[5])
        guard width > 0, height > 0, width * height <= Self.maximumPixels, count == 1 || count == 3,
            segment.count >= 6 + 3 * count
        else { return false }
        var factors: [(id: Int, horizontal: Int, vertical: Int, table: Int)] = []
        for index in 0..<count {
            let offset = 6 + 3 * index
            let id = Int(segment[offset])
            let horizontal = Int(segment[offset + 1] >> 4)
            let vertical = Int(segment[offset + 1] & 0x0F)
            let table = Int(segment[offset + 2])
            guard (1...2).contains(horizontal), (1...2).contains(vertical), table <= 3,
                !factors.contains(where: { $0.id == id })
            else { return false }
            factors.append((id, horizontal, vertical, table))
        }
        let maxHorizontal = factors.map(\.horizontal).max() ?? 1
        let maxVertical = factors.map(\.vertical).max() ?? 1
        let mcusPerLine = (width + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
        let mcusPerColumn = (height + 8 * maxVertical - 1) / (8 * maxVertical)
        var base = 0
        var codedBlocks = 0
        var components: [FrameComponent] = []
        for factor in factors {
            let samplesPerLine = (width * factor.horizontal + maxHorizontal - 1) / maxHorizontal
            let lines = (height * factor.vertical + maxVertical - 1) / maxVertical
            let component = FrameComponent(
                id: factor.id,
                horizontal: factor.horizontal,
                vertical: factor.vertical,
                quantTable: factor.table,
                blocksPerLine: mcusPerLine * factor.horizontal,
                blocksPerColumn: mcusPerColumn * factor.vertical,
                scanBlocksPerLine: (samplesPerLine + 7) / 8,
                scanBlocksPerColumn: (lines + 7) / 8,
                base: base
            )
            base += component.blocksPerLine * component.blocksPerColumn
            codedBlocks += component.scanBlocksPerLine * component.scanBlocksPerColumn
            components.append(component)
        }
        // Every coded block takes at least one bit: a header promising more blocks than the file has bits is a lie, and
        // believing it would allocate for it.
        guard codedBlocks / 8 <= bytes.count else { return false }
        self.width = width
        self.height = height
        self.progressive = progressive
        self.maxHorizontal = maxHorizontal
        self.maxVertical = maxVertical
        self.components = components
        coefficients = [Int32](repeating: 0, count: base)
        return true
    }

    private mutating func readHuffmanTables(_ segment: [UInt8]) -> Bool {
        var offset = 0
        while offset < segment.count {
            guard offset + 17 <= segment.count else { return false }
            let kind = Int(segment[offset] >> 4)
            let slot = Int(segment[offset] & 0x0F)
            guard kind <= 1, slot <= 3 else { return false }
            let counts = segment[(offset + 1)..<(offset + 17)].map { Int($0) }
            let total = counts.reduce(0, +)
            guard total <= 256, offset + 17 + total <= segment.count,
                let table = HuffmanTable(counts: counts, symbols: Array(segment[(offset + 17)..<(offset + 17 + total)]))
            else { return false }
            if kind == 0 { dcTables[slot] = table } else { acTables[slot] = table }
            offset += 17 + total
        }
        return true
    }

    /// Only each table's first entry matters here: zigzag position 0 is the DC quantizer.
    private mutating func readQuantizationTables(_ segment: [UInt8]) -> Bool {
        var offset = 0
        while offset < segment.count {
            let precision = Int(segment[offset] >> 4)
            let slot = Int(segment[offset] & 0x0F)
            let size = precision == 0 ? 64 : 128
            guard precision <= 1, slot <= 3, offset + 1 + size <= segment.count else { return false }
            quantDC[slot] =
                precision == 0 ? Int(segment[offset + 1]) : Int(segment[offset + 1]) << 8 | Int(segment[offset + 2])
            offset += 1 + size
        }
        return true
    }

    /// Every block's average from its DC coefficient (DC × quantizer / 8 + 128), chroma repeated to the luma grid, as RGB.
    private func finish() -> EighthScaleImage? {
        guard !components.isEmpty, components.allSatisfy(\.decoded) else { return nil }
        let scaledWidth = (width + 7) / 8
        let scaledHeight = (height + 7) / 8
        var planes: [[UInt8]] = []
        for component in components {
            guard let quant = component.quantDC else { return nil }
            var plane = [UInt8](repeating: 0, count: scaledWidth * scaledHeight)
            for y in 0..<scaledHeight {
                let row = min(y * component.vertical / maxVertical, component.blocksPerColumn - 1)
                for x in 0..<scaledWidth {
                    let column = min(x * component.horizontal / maxHorizontal, component.blocksPerLine - 1)
                    let index = component.base + row * component.blocksPerLine + column
                    guard index < coefficients.count else { return nil }
                    // Rounded to nearest: adding half of 8 before the (flooring) shift.
                    let value = (Int(coefficients[index]) * quant + 4) >> 3 + 128
                    plane[y * scaledWidth + x] = UInt8(truncatingIfNeeded: max(0, min(255, value)))
                }
            }
            planes.append(plane)
        }
        var samples: [UInt8]
        if planes.count == 3 {
            samples = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * 3)
            let isRGB = adobeTransform == 0
            for index in 0..<(scaledWidth * scaledHeight) {
                let first = Double(planes[0][index])
                let second = Double(planes[1][index])
                let third = Double(planes[2][index])
                if isRGB {
                    samples[3 * index] = planes[0][index]
                    samples[3 * index + 1] = planes[1][index]
                    samples[3 * index + 2] = planes[2][index]
                } else {
                    // JFIF's full-range BT.601.
                    samples[3 * index] = Self.byte(first + 1.402 * (third - 128))
                    samples[3 * index + 1] = Self.byte(first - 0.344_136 * (second - 128) - 0.714_136 * (third - 128))
                    samples[3 * index + 2] = Self.byte(first + 1.772 * (second - 128))
                }
            }
        } else {
            samples = planes[0]
        }
        return EighthScaleImage(
            width: width,
            height: height,
            scaledWidth: scaledWidth,
            scaledHeight: scaledHeight,
            channels: planes.count,
            samples: samples,
            exif: exif
        )
    }

    static func byte(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}
