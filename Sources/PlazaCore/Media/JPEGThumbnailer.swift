import Foundation

/// Small JPEG pictures for feeds, made from a (sanitized) JPEG without an image library.
///
/// A feed tile needs far fewer pixels than a phone photo has, and a JPEG already stores each 8×8 block's average as its
/// DC coefficient: reading only those gives the photo at 1/8 scale with no inverse DCT, which is what makes this fast
/// enough to run inside the upload request. Everything read from the input is bounds-checked; damaged or hostile input
/// answers nil rather than trapping.
public enum JPEGThumbnailer {
    /// A baseline JPEG whose longer side is at most `maxSide` pixels (aspect kept, never upscaled: a picture already
    /// small enough answers nil, meaning "serve the original"), or nil when the input uses something this decoder does
    /// not read (arithmetic coding, 12-bit samples, 4-component CMYK/YCCK, lossless/hierarchical) or is damaged.
    /// If the input carries an APP1 "Exif" segment, copy it unchanged into the output right after SOI/APP0 (the
    /// sanitizer leaves only an orientation tag there, which the thumbnail must keep so it shows the right way up).
    public static func thumbnail(_ jpeg: Data, maxSide: Int = 480, quality: Int = 80) -> Data? {
        guard maxSide > 0, let image = eighthScale(jpeg, onlyIfLongerThan: maxSide) else { return nil }
        let scale = Double(maxSide) / Double(max(image.width, image.height))
        let width = min(maxSide, max(1, Int((Double(image.width) * scale).rounded())))
        let height = min(maxSide, max(1, Int((Double(image.height) * scale).rounded())))
        let pixels = Resampler.resample(image, width: width, height: height)
        let encoded = BaselineEncoder.encode(
            pixels, width: width, height: height, channels: image.channels, quality: quality, exif: image.exif)
        return Data(encoded)
    }

    /// The picture at 1/8 scale, read from its DC coefficients alone; nil when unreadable. Internal so tests can look at
    /// the colours of a thumbnail the way this decoder sees them.
    static func eighthScale(_ jpeg: Data) -> EighthScaleImage? {
        eighthScale(jpeg, onlyIfLongerThan: 0)
    }

    /// Checking the size at the frame header skips decoding pictures that will be served as they are.
    private static func eighthScale(_ jpeg: Data, onlyIfLongerThan limit: Int) -> EighthScaleImage? {
        var decoder = DCDecoder(bytes: [UInt8](jpeg))
        return decoder.decode(onlyIfLongerThan: limit)
    }
}

/// A JPEG read at 1/8 scale: one pixel per 8×8 block of the original.
struct EighthScaleImage {
    /// The original's size in pixels.
    var width: Int
    var height: Int
    /// The 1/8-scale picture's size: the original's divided by 8, rounded up (a partial edge block is a pixel too).
    var scaledWidth: Int
    var scaledHeight: Int
    /// 1 for grayscale, 3 for RGB.
    var channels: Int
    /// Row by row, `channels` bytes a pixel.
    var samples: [UInt8]
    /// The input's first APP1 "Exif" segment, marker and length included, to be copied into the thumbnail.
    var exif: [UInt8]?
}

// MARK: - Decoding

/// A Huffman table as the decoder uses it: a lookup by the next 9 bits for the short codes that carry nearly every
/// symbol, and the canonical code ranges by length for the rest.
private final class HuffmanTable {
    static let lookupBits = 9
    /// By the next `lookupBits` bits: the code's length << 8 | its symbol, or 0 when the code is longer.
    let lookup: [UInt16]
    /// By code length 1–16: the largest code of that length (−1 when none).
    let maxCode: [Int]
    /// By code length: what to add to a code of that length to find its symbol's index in `symbols`.
    let offset: [Int]
    let symbols: [UInt8]

    /// Nil when the counts describe more codes than fit their lengths (a damaged table).
    init?(counts: [Int], symbols: [UInt8]) {
        var lookup = [UInt16](repeating: 0, count: 1 << Self.lookupBits)
        var maxCode = [Int](repeating: -1, count: 17)
        var offset = [Int](repeating: 0, count: 17)
        var code = 0
        var index = 0
        for length in 1...16 {
            let count = counts[length - 1]
            offset[length] = index - code
            for _ in 0..<count {
                guard code < 1 << length, index < symbols.count else { return nil }
                if length <= Self.lookupBits {
                    let shift = Self.lookupBits - length
                    let entry = UInt16(length << 8) | UInt16(symbols[index])
                    for slot in (code << shift)..<((code + 1) << shift) { lookup[slot] = entry }
                }
                code += 1
                index += 1
            }
            if count > 0 { maxCode[length] = code - 1 }
            code <<= 1
        }
        self.lookup = lookup
        self.maxCode = maxCode
        self.offset = offset
        self.symbols = symbols
    }
}

/// Entropy-coded bits, most significant first, with stuffed 0xFF 0x00 read as 0xFF. At a marker or the end of the data
/// it makes up zero bits, as decoders do, but counts them: a scan that used any was cut short.
private struct BitReader {
    let data: UnsafeBufferPointer<UInt8>
    var position: Int
    /// The next `count` bits, left-aligned.
    var buffer: UInt64 = 0
    var count = 0
    /// How many of the bits in `buffer` (always the last ones) were made up.
    var padding = 0

    init(data: UnsafeBufferPointer<UInt8>, position: Int) {
        self.data = data
        self.position = position
    }

    /// Whether the decoding used bits that are not in the data.
    var overran: Bool { count < padding }

    mutating func refill() {
        while count <= 56 {
            var byte: UInt8 = 0
            if padding == 0, position < data.count {
                let current = data[position]
                if current != 0xFF {
                    byte = current
                    position += 1
                } else if position + 1 < data.count, data[position + 1] == 0 {
                    byte = 0xFF
                    position += 2
                } else {
                    padding = 8  // a marker: the scan's data ends here
                }
            } else {
                padding += 8
            }
            buffer |= UInt64(byte) &<< UInt64(56 - count)
            count += 8
        }
    }

    /// The next `length` bits (0–16) as an unsigned number.
    mutating func bits(_ length: Int) -> Int {
        guard length > 0 else { return 0 }
        if count < length { refill() }
        let value = Int(truncatingIfNeeded: buffer &>> UInt64(64 - length))
        buffer = buffer &<< UInt64(length)
        count -= length
        return value
    }

    mutating func skip(_ length: Int) {
        if count < length { refill() }
        buffer = buffer &<< UInt64(length)
        count -= length
    }

    /// The next Huffman-coded symbol; nil when the bits match no code.
    mutating func decode(_ table: HuffmanTable) -> Int? {
        if count < 16 { refill() }
        let entry = Int(table.lookup[Int(truncatingIfNeeded: buffer &>> UInt64(64 - HuffmanTable.lookupBits))])
        if entry != 0 {
            skip(entry >> 8)
            return entry & 0xFF
        }
        for length in (HuffmanTable.lookupBits + 1)...16 {
            let code = Int(truncatingIfNeeded: buffer &>> UInt64(64 - length))
            if code <= table.maxCode[length] {
                let index = code + table.offset[length]
                guard index >= 0, index < table.symbols.count else { return nil }
                skip(length)
                return Int(table.symbols[index])
            }
        }
        return nil
    }

    /// A coefficient's value from its magnitude category `size` (JPEG's EXTEND: codes below half are negative).
    mutating func signed(_ size: Int) -> Int {
        let value = bits(size)
        return size > 0 && value < 1 << (size - 1) ? value - (1 << size) + 1 : value
    }

    /// Past the RSTn marker that ends a restart interval: the bits left before it are padding. False when the next
    /// marker is not a restart marker (the data ended early).
    mutating func restart() -> Bool {
        buffer = 0
        count = 0
        padding = 0
        while position + 1 < data.count {
            guard data[position] == 0xFF else {
                position += 1
                continue
            }
            let marker = data[position + 1]
            if marker == 0xFF {
                position += 1  // fill byte
            } else if marker == 0x00 {
                position += 2
            } else {
                guard (0xD0...0xD7).contains(marker) else { return false }
                position += 2
                return true
            }
        }
        return false
    }
}

/// One component of the frame, with where its DC coefficients sit in the decoder's single coefficient array.
private struct FrameComponent {
    let id: Int
    let horizontal: Int
    let vertical: Int
    let quantTable: Int
    /// Blocks a row and rows of blocks as stored: padded to whole MCUs, as interleaved scans code them.
    let blocksPerLine: Int
    let blocksPerColumn: Int
    /// What a non-interleaved scan codes: only the blocks covering the component's own samples.
    let scanBlocksPerLine: Int
    let scanBlocksPerColumn: Int
    let base: Int
    /// The DC quantizer, taken when the component's first scan starts (tables may be redefined between scans).
    var quantDC: Int?
    var decoded = false
}

/// How a scan's blocks are read.
private enum ScanMode {
    /// Sequential Huffman: the DC coefficient kept, every AC coefficient decoded only to step past it.
    case sequential
    /// A progressive first DC scan: the DC coefficient shifted left by the point transform.
    case firstDC(shift: Int)
    /// A progressive DC refinement: one more bit, at position `bit`.
    case refineDC(bit: Int)
}

/// A component's part in one scan.
private struct ScanPart {
    let component: Int
    let base: Int
    let blocksPerLine: Int
    /// Blocks per MCU across and down: the sampling factors in an interleaved scan, 1 × 1 in a scan of one component.
    let horizontal: Int
    let vertical: Int
    let dcTable: HuffmanTable?
    let acTable: HuffmanTable?
}

/// Reads a JPEG's markers, then its scans' DC coefficients, into the 1/8-scale picture.
private struct DCDecoder {
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
                if exif == nil, segment.starts(with: Array("Exif\0\0".utf8)) { exif = Array(bytes[(position - 2)..<next]) }
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
            guard (1...2).contains(horizontal), (1...2).contains(vertical), table <= 3, !factors.contains(where: { $0.id == id })
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
                id: factor.id, horizontal: factor.horizontal, vertical: factor.vertical, quantTable: factor.table,
                blocksPerLine: mcusPerLine * factor.horizontal, blocksPerColumn: mcusPerColumn * factor.vertical,
                scanBlocksPerLine: (samplesPerLine + 7) / 8, scanBlocksPerColumn: (lines + 7) / 8, base: base)
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
            quantDC[slot] = precision == 0 ? Int(segment[offset + 1]) : Int(segment[offset + 1]) << 8 | Int(segment[offset + 2])
            offset += 1 + size
        }
        return true
    }

    /// Decodes (or skips) one scan; answers where its entropy-coded data ends, at the next marker.
    private mutating func readScan(_ segment: [UInt8], dataStart: Int) -> Int? {
        guard !components.isEmpty, let count = segment.first.map(Int.init), (1...4).contains(count), segment.count >= 4 + 2 * count
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
            guard let number = components.firstIndex(where: { $0.id == id }), !parts.contains(where: { $0.component == number }),
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
                    component: number, base: component.base, blocksPerLine: component.blocksPerLine,
                    horizontal: single ? 1 : component.horizontal, vertical: single ? 1 : component.vertical, dcTable: dcTable,
                    acTable: acTable))
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
                    data: data, from: dataStart, into: coefficients, parts: parts, mode: mode,
                    mcus: (mcusPerLine, mcusPerColumn), restartInterval: interval)
            }
        }
    }

    /// The entropy-coded data, MCU by MCU; answers the position of the marker that follows it, or nil when damaged.
    private static func decodeBlocks(
        data: UnsafeBufferPointer<UInt8>, from start: Int, into coefficients: UnsafeMutableBufferPointer<Int32>, parts: [ScanPart],
        mode: ScanMode, mcus: (perLine: Int, perColumn: Int), restartInterval: Int
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
                                guard let dcTable = part.dcTable, let size = reader.decode(dcTable), size <= 15 else { return nil }
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
            width: width, height: height, scaledWidth: scaledWidth, scaledHeight: scaledHeight, channels: planes.count,
            samples: samples, exif: exif)
    }

    static func byte(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}

// MARK: - Resampling

/// From the 1/8-scale picture to the thumbnail's size: an area average when shrinking, bilinear when (for originals
/// under 8× the size) the 1/8 picture is smaller than the thumbnail.
private enum Resampler {
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
                    for channel in 0..<channels { horizontal[y * line + x * channels + channel] += weight * Float(image.samples[source + channel]) }
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
private enum BaselineEncoder {
    /// Zigzag position → row-major position within a block.
    static let zigzag = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]
    /// Annex K.1's tables, row-major.
    static let luminanceQuantization = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100,
        103, 99,
    ]
    static let chrominanceQuantization: [Int] =
        [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99]
        + [Int](repeating: 99, count: 36)
    /// Annex K.3's tables: code counts by length 1–16, then the symbols.
    static let dcLuminance = (counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: [UInt8](0...11))
    static let dcChrominance = (counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: [UInt8](0...11))
    static let acLuminance = (
        counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 125],
        symbols: [
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91,
            0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A,
            0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x53,
            0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79,
            0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5,
            0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9,
            0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2,
            0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
        ] as [UInt8]
    )
    static let acChrominance = (
        counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 119],
        symbols: [
            0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14,
            0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0, 0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17,
            0x18, 0x19, 0x1A, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A,
            0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78,
            0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3,
            0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7,
            0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2,
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

    static func encode(_ pixels: [UInt8], width: Int, height: Int, channels: Int, quality: Int, exif: [UInt8]?) -> [UInt8] {
        let color = channels == 3
        let luminance = scaled(luminanceQuantization, quality: quality)
        let chrominance = scaled(chrominanceQuantization, quality: quality)
        var output: [UInt8] = [0xFF, 0xD8]
        output += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        if let exif { output += exif }
        // DQT lists each table in zigzag order.
        output += [0xFF, 0xDB] + bigEndian(2 + 65 * (color ? 2 : 1)) + [0x00] + zigzag.map { UInt8(luminance[$0]) }
        if color { output += [0x01] + zigzag.map { UInt8(chrominance[$0]) } }
        output += [0xFF, 0xC0] + bigEndian(8 + 3 * channels) + [0x08] + bigEndian(height) + bigEndian(width) + [UInt8(channels)]
        output += color ? [0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01] : [0x01, 0x11, 0x00]
        let tables =
            color
            ? [(0x00, dcLuminance), (0x10, acLuminance), (0x01, dcChrominance), (0x11, acChrominance)] : [(0x00, dcLuminance), (0x10, acLuminance)]
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
                        let block = samples(plane, width: planes.chromaWidth, height: planes.chromaHeight, x: mcuX / 2, y: mcuY / 2)
                        chroma.encode(block, predictor: &predictors[index + 1], into: &writer)
                    }
                }
            }
        } else {
            let plane = pixels.map { Float($0) - 128 }
            var predictor = 0
            for y in stride(from: 0, to: height, by: 8) {
                for x in stride(from: 0, to: width, by: 8) {
                    luma.encode(samples(plane, width: width, height: height, x: x, y: y), predictor: &predictor, into: &writer)
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
        _ pixels: [UInt8], width: Int, height: Int
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
                blue[y * chromaWidth + x] = (blueFull[top + left] + blueFull[top + right] + blueFull[bottom + left] + blueFull[bottom + right]) / 4
                red[y * chromaWidth + x] = (redFull[top + left] + redFull[top + right] + redFull[bottom + left] + redFull[bottom + right]) / 4
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

    /// Writes blocks of one component: DCT, quantization, zigzag and Huffman coding.
    struct Coder {
        let quantization: [Int]
        let dc: [(code: Int, length: Int)]
        let ac: [(code: Int, length: Int)]

        func encode(_ block: [Float], predictor: inout Int, into writer: inout BitWriter) {
            var quantized = [Int](repeating: 0, count: 64)
            // The separable DCT: rows, then columns. Buffer pointers keep it quick in debug builds, where it runs in tests.
            BaselineEncoder.basis.withUnsafeBufferPointer { basis in
                block.withUnsafeBufferPointer { block in
                    quantization.withUnsafeBufferPointer { quantization in
                        var rows = [Float](repeating: 0, count: 64)
                        for y in 0..<8 {
                            for u in 0..<8 {
                                var sum: Float = 0
                                for x in 0..<8 { sum += basis[u * 8 + x] * block[y * 8 + x] }
                                rows[y * 8 + u] = sum
                            }
                        }
                        for v in 0..<8 {
                            for u in 0..<8 {
                                var sum: Float = 0
                                for y in 0..<8 { sum += basis[v * 8 + y] * rows[y * 8 + u] }
                                // Baseline Huffman tables stop at magnitude category 11 for DC differences and 10 for AC.
                                quantized[v * 8 + u] = Int(max(-1023, min(1023, (sum / Float(quantization[v * 8 + u])).rounded())))
                            }
                        }
                    }
                }
            }
            let difference = quantized[0] - predictor
            predictor = quantized[0]
            let size = Self.category(difference)
            writer.write(dc[size])
            writer.write(Self.magnitude(difference, size: size), length: size)
            var run = 0
            let zigzag = BaselineEncoder.zigzag
            for position in 1..<64 {
                let value = quantized[zigzag[position]]
                if value == 0 {
                    run += 1
                    continue
                }
                while run > 15 {
                    writer.write(ac[0xF0])
                    run -= 16
                }
                let size = Self.category(value)
                writer.write(ac[run << 4 | size])
                writer.write(Self.magnitude(value, size: size), length: size)
                run = 0
            }
            if run > 0 { writer.write(ac[0x00]) }
        }

        /// How many bits the value's magnitude takes.
        static func category(_ value: Int) -> Int {
            Int.bitWidth - abs(value).leadingZeroBitCount
        }

        /// JPEG writes a negative value as its ones' complement in `size` bits.
        static func magnitude(_ value: Int, size: Int) -> Int {
            value < 0 ? value + (1 << size) - 1 : value
        }
    }

    /// Bits most significant first, with a 0x00 stuffed after every 0xFF byte so the data never looks like a marker.
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer = 0
        var count = 0

        mutating func write(_ code: (code: Int, length: Int)) {
            write(code.code, length: code.length)
        }

        mutating func write(_ bits: Int, length: Int) {
            guard length > 0 else { return }
            buffer = buffer << length | (bits & ((1 << length) - 1))
            count += length
            while count >= 8 {
                let byte = UInt8(truncatingIfNeeded: buffer >> (count - 8))
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0x00) }
                count -= 8
            }
            buffer &= (1 << count) - 1
        }

        /// The last byte is padded with one bits, as the standard asks.
        mutating func flush() {
            if count > 0 { write((1 << (8 - count)) - 1, length: 8 - count) }
        }
    }
}
