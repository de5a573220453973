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

    /// Decodes (or skips) one scan; answers where its entropy-coded data ends, at the next marker.
    private mutating func readScan(_ segment: [UInt8], dataStart: Int) -> Int? {
        guard !components.isEmpty, let count = segment.first.map(Int.init), (1...4).contains(count),
            segment.count >= 4 + 2 * count
        else { return nil }
        let start = Int(segment[1 + 2 * count])
        let end = Int(segment[2 + 2 * count])
        let high = Int(segment[3 + 2 * count] >> 4)
        let low = Int(segment[3 + 2 * count] & 0x0F)
        let mode: ScanMode
        if progressive {
            // AC scans refine detail a 1/8-scale picture cannot show: stepped over unread.
            guard start == 0 else { return bytes.withUnsafeBufferPointer { Self.nextMarker($0, from: dataStart) } }
            guard end == 0 else { return nil }
            mode = high == 0 ? .firstDC(shift: low) : .refineDC(bit: low)
        } else {
            guard start == 0, end == 63 else { return nil }
            mode = .sequential
        }
        var parts: [ScanPart] = []
        for index in 0..<count {
            let id = Int(segment[1 + 2 * index])
            let dcSlot = Int(segment[2 + 2 * index] >> 4)
            let acSlot = Int(segment[2 + 2 * index] & 0x0F)
            guard let number = components.firstIndex(where: { $0.id == id }),
                !parts.contains(where: { $0.component == number }),
                dcSlot <= 3, acSlot <= 3
            else { return nil }
            let component = components[number]
            let dcTable = dcTables[dcSlot]
            let acTable = acTables[acSlot]
            switch mode {
            case .sequential: guard dcTable != nil, acTable != nil else { return nil }
            case .firstDC: guard dcTable != nil else { return nil }
            case .refineDC: break
            }
            if component.quantDC == nil {
                guard let quant = quantDC[component.quantTable] else { return nil }
                components[number].quantDC = quant
            }
            components[number].decoded = true
            let single = count == 1
            parts.append(
                ScanPart(
                    component: number,
                    base: component.base,
                    blocksPerLine: component.blocksPerLine,
                    horizontal: single ? 1 : component.horizontal,
                    vertical: single ? 1 : component.vertical,
                    dcTable: dcTable,
                    acTable: acTable
                )
            )
        }
        let mcusPerLine: Int
        let mcusPerColumn: Int
        if count == 1, let only = parts.first {
            mcusPerLine = components[only.component].scanBlocksPerLine
            mcusPerColumn = components[only.component].scanBlocksPerColumn
        } else {
            mcusPerLine = components[0].blocksPerLine / components[0].horizontal
            mcusPerColumn = components[0].blocksPerColumn / components[0].vertical
        }
        let interval = restartInterval
        let bytes = self.bytes
        return coefficients.withUnsafeMutableBufferPointer { coefficients in
            bytes.withUnsafeBufferPointer { data in
                Self.decodeBlocks(
                    data: data,
                    from: dataStart,
                    into: coefficients,
                    parts: parts,
                    mode: mode,
                    mcus: (mcusPerLine, mcusPerColumn),
                    restartInterval: interval
                )
            }
        }
    }

    /// The entropy-coded data, MCU by MCU; answers the position of the marker that follows it, or nil when damaged.
    private static func decodeBlocks(
        data: UnsafeBufferPointer<UInt8>,
        from start: Int,
        into coefficients: UnsafeMutableBufferPointer<Int32>,
        parts: [ScanPart],
        mode: ScanMode,
        mcus: (perLine: Int, perColumn: Int),
        restartInterval: Int
    ) -> Int? {
        var reader = BitReader(data: data, position: start)
        var predictors = [Int](repeating: 0, count: parts.count)
        var mcu = 0
        for mcuRow in 0..<mcus.perColumn {
            for mcuColumn in 0..<mcus.perLine {
                if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                    guard !reader.overran, reader.restart() else { return nil }
                    for index in predictors.indices { predictors[index] = 0 }
                }
                mcu += 1
                for number in 0..<parts.count {
                    let part = parts[number]
                    for row in (mcuRow * part.vertical)..<((mcuRow + 1) * part.vertical) {
                        for column in (mcuColumn * part.horizontal)..<((mcuColumn + 1) * part.horizontal) {
                            let index = part.base + row * part.blocksPerLine + column
                            guard index >= 0, index < coefficients.count else { return nil }
                            switch mode {
                            case .sequential:
                                guard let dcTable = part.dcTable, let acTable = part.acTable,
                                    let size = reader.decode(dcTable), size <= 15
                                else { return nil }
                                predictors[number] += reader.signed(size)
                                coefficients[index] = Int32(clamping: predictors[number])
                                guard skipACCoefficients(&reader, acTable) else { return nil }
                            case .firstDC(let shift):
                                guard let dcTable = part.dcTable, let size = reader.decode(dcTable), size <= 15 else {
                                    return nil
                                }
                                predictors[number] += reader.signed(size)
                                coefficients[index] = Int32(clamping: predictors[number] << shift)
                            case .refineDC(let bit):
                                if reader.bits(1) == 1 { coefficients[index] |= Int32(1) << Int32(bit) }
                            }
                        }
                    }
                }
                if reader.overran { return nil }
            }
        }
        return nextMarker(data, from: reader.position)
    }

    /// Huffman-decodes a block's 63 AC coefficients only to find where the next block starts. Nearly every AC code is
    /// found by the 9-bit lookup; its code and the coefficient's bits are then stepped over in one go, as this loop is
    /// where a sequential JPEG's decoding spends its time.
    private static func skipACCoefficients(_ reader: inout BitReader, _ table: HuffmanTable) -> Bool {
        let lookup = table.lookup
        var index = 1
        while index < 64 {
            if reader.count < 32 { reader.refill() }
            let entry = Int(lookup[Int(truncatingIfNeeded: reader.buffer &>> UInt64(64 - HuffmanTable.lookupBits))])
            let symbol: Int
            if entry != 0 {
                symbol = entry & 0xFF
                let length = (entry >> 8) + (symbol & 0x0F)
                reader.buffer = reader.buffer &<< UInt64(length)
                reader.count -= length
            } else {
                guard let decoded = reader.decode(table) else { return false }
                symbol = decoded
                reader.skip(symbol & 0x0F)
            }
            if symbol & 0x0F == 0 {
                guard symbol == 0xF0 else { return true }  // end of block
                index += 16  // sixteen zeros
            } else {
                index += (symbol >> 4) + 1
            }
        }
        return true
    }

    /// Where a scan's data ends: the next marker that is not a restart marker or a stuffed 0xFF.
    private static func nextMarker(_ data: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var position = max(start, 0)
        while position + 1 < data.count {
            guard data[position] == 0xFF else {
                position += 1
                continue
            }
            let marker = data[position + 1]
            if marker == 0xFF {
                position += 1
            } else if marker == 0x00 || (0xD0...0xD7).contains(marker) {
                position += 2
            } else {
                return position
            }
        }
        return nil
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
