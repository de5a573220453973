import PlazaCore

/// A QR code (ISO/IEC 18004) of bytes, error correction level M, versions 1 to 20 (up to 666 bytes): what pay codes
/// and, later, loyalty cards show. Pure Swift, so pages, tests and apps without CoreImage draw the same symbol.
public struct QRCode: Sendable, Equatable {
    /// 21 + 4 × (version − 1) modules a side.
    public let size: Int
    public let version: Int
    public let mask: Int
    /// Row-major, `true` for dark.
    public let modules: [Bool]

    public subscript(row: Int, column: Int) -> Bool { modules[row * size + column] }

    /// The smallest version that holds `bytes`, with the mask of lowest penalty; `nil` past 666 bytes.
    public init?(bytes: [UInt8]) {
        guard let version = (1...20).first(where: { Self.capacity(version: $0) >= bytes.count }) else { return nil }
        let candidates = (0..<8).map { QRCode(bytes: bytes, version: version, mask: $0) }
        self = candidates.min { $0.penalty < $1.penalty }!
    }

    public init?(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// `bytes` at a given version and mask (`bytes` must fit).
    public init(bytes: [UInt8], version: Int, mask: Int) {
        precondition(
            (1...20).contains(version) && (0..<8).contains(mask) && bytes.count <= Self.capacity(version: version)
        )
        var matrix = Matrix(version: version)
        matrix.placeFunctionPatterns()
        matrix.placeData(Self.codewords(bytes, version: version), mask: mask)
        matrix.placeFormat(mask: mask)
        size = matrix.size
        self.version = version
        self.mask = mask
        modules = matrix.dark
    }

    /// An SVG of the symbol with a four-module quiet zone, one path, `scale` pixels a module. Hidden from screen
    /// readers: the page names it (a wrapper with `role="img"`) and writes its code beside it.
    public func svg(scale: Int = 6) -> String {
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < size, self[row, column] { column += 1 }
                path += "M\(start + 4) \(row + 4)h\(column - start)v1h-\(column - start)z"
            }
        }
        let side = size + 8
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" width=\"\(side * scale)\" height=\"\(side * scale)\" "
            + "shape-rendering=\"crispEdges\" aria-hidden=\"true\" focusable=\"false\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    // MARK: Tables (level M)

    /// (error-correction codewords per block, data codewords of each block) per version.
    static let blocks: [(ec: Int, data: [Int])] = [
        (10, [16]), (16, [28]), (26, [44]), (18, [32, 32]), (24, [43, 43]), (16, [27, 27, 27, 27]),
        (18, [31, 31, 31, 31]),
        (22, [38, 38, 39, 39]), (22, [36, 36, 36, 37, 37]), (26, [43, 43, 43, 43, 44]),
        (30, [50] + [Int](repeating: 51, count: 4)), (22, [Int](repeating: 36, count: 6) + [37, 37]),
        (22, [Int](repeating: 37, count: 8) + [38]),
        (24, [Int](repeating: 40, count: 4) + [Int](repeating: 41, count: 5)),
        (24, [Int](repeating: 41, count: 5) + [Int](repeating: 42, count: 5)),
        (28, [Int](repeating: 45, count: 7) + [46, 46, 46]),
        (28, [Int](repeating: 46, count: 10) + [47]),
        (26, [Int](repeating: 43, count: 9) + [Int](repeating: 44, count: 4)),
        (26, [44, 44, 44] + [Int](repeating: 45, count: 11)), (26, [41, 41, 41] + [Int](repeating: 42, count: 13)),
    ]
    static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
        [6, 30, 54], [6, 32, 58],
        [6, 34, 62], [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78], [6, 30, 56, 82],
        [6, 30, 58, 86], [6, 34, 62, 90],
    ]

    /// Bytes that fit: data codewords less the mode (4 bits) and the length (8 bits, 16 from version 10).
    static func capacity(version: Int) -> Int {
        blocks[version - 1].data.reduce(0, +) - (version < 10 ? 2 : 3)
    }

    /// Data in byte mode, padded, split into blocks, each with its Reed-Solomon codewords, interleaved.
    static func codewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        let (ecCount, sizes) = blocks[version - 1]
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version < 10 ? 8 : 16)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = sizes.reduce(0, +) * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < capacity / 8 {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for size in sizes {
            dataBlocks.append(Array(data[offset..<offset + size]))
            offset += size
        }
        let generator = ReedSolomon.generator(degree: ecCount)
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, generator: generator) }
        var result: [UInt8] = []
        for index in 0..<(sizes.max() ?? 0) {
            for block in dataBlocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<ecCount { for block in ecBlocks { result.append(block[index]) } }
        return result
    }

    /// The four penalty rules of the standard; the lowest-scoring mask is used.
    var penalty: Int {
        var score = 0
        for line in 0..<size {
            for horizontal in [true, false] {
                var run = 0
                var last: Bool?
                var pattern = 0
                for index in 0..<size {
                    let current = horizontal ? self[line, index] : self[index, line]
                    if current == last {
                        run += 1
                        if run == 5 { score += 3 } else if run > 5 { score += 1 }
                    } else {
                        run = 1
                        last = current
                    }
                    // 1:1:3:1:1 finder-like runs with four light modules on either side.
                    pattern = ((pattern << 1) | (current ? 1 : 0)) & 0x7FF
                    if index >= 10, pattern == 0b101_1101_0000 || pattern == 0b000_0101_1101 { score += 40 }
                }
            }
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let color = self[row, column]
                if self[row, column + 1] == color, self[row + 1, column] == color, self[row + 1, column + 1] == color {
                    score += 3
                }
            }
        }
        let darkPercent = modules.filter { $0 }.count * 100 / modules.count
        score += abs(darkPercent - 50) / 5 * 10
        return score
    }
}

/// The symbol under construction: modules and which of them are function patterns.
private struct Matrix {
    let version: Int
    let size: Int
    var dark: [Bool]
    var reserved: [Bool]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: false, count: size * size)
        reserved = Array(repeating: false, count: size * size)
    }

    mutating func set(_ row: Int, _ column: Int, _ value: Bool) {
        dark[row * size + column] = value
        reserved[row * size + column] = true
    }

    mutating func placeFunctionPatterns() {
        for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] {
            for dr in -1...7 {
                for dc in -1...7 {
                    let (r, c) = (row + dr, column + dc)
                    guard (0..<size).contains(r), (0..<size).contains(c) else { continue }
                    let ring = max(abs(dr - 3), abs(dc - 3))
                    set(r, c, ring != 2 && ring != 4)
                }
            }
        }
        for index in 8..<(size - 8) {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        let centers = QRCode.alignment[version - 1]
        for row in centers {
            for column in centers
            where !(row == 6 && column == 6) && !(row == 6 && column == size - 7) && !(row == size - 7 && column == 6) {
                for dr in -2...2 { for dc in -2...2 { set(row + dr, column + dc, max(abs(dr), abs(dc)) != 1) } }
            }
        }
        // Format areas (written after masking) and the dark module.
        for index in 0..<9 {
            reserved[8 * size + index] = true
            reserved[index * size + 8] = true
        }
        for index in 0..<8 {
            reserved[8 * size + size - 1 - index] = true
            reserved[(size - 1 - index) * size + 8] = true
        }
        set(size - 8, 8, true)
        if version >= 7 {
            var bits = version << 12
            for shift in stride(from: 17, through: 12, by: -1) where bits >> shift & 1 == 1 {
                bits ^= 0x1F25 << (shift - 12)
            }
            let code = version << 12 | bits
            for index in 0..<18 {
                let bit = code >> index & 1 == 1
                let (a, b) = (index / 3, size - 11 + index % 3)
                set(a, b, bit)
                set(b, a, bit)
            }
        }
    }

    /// Codewords in the zigzag order of the standard, two columns at a time from the bottom right, masked.
    mutating func placeData(_ codewords: [UInt8], mask: Int) {
        var bitIndex = 0
        let total = codewords.count * 8
        var column = size - 1
        var upward = true
        while column > 0 {
            if column == 6 { column -= 1 }
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for c in [column, column - 1] where !reserved[row * size + c] {
                    var bit = false
                    if bitIndex < total { bit = codewords[bitIndex / 8] >> (7 - bitIndex % 8) & 1 == 1 }
                    bitIndex += 1
                    dark[row * size + c] = bit != Self.masked(mask, row, c)
                }
            }
            upward.toggle()
            column -= 2
        }
    }

    static func masked(_ mask: Int, _ row: Int, _ column: Int) -> Bool {
        switch mask {
        case 0: (row + column) % 2 == 0
        case 1: row % 2 == 0
        case 2: column % 3 == 0
        case 3: (row + column) % 3 == 0
        case 4: (row / 2 + column / 3) % 2 == 0
        case 5: row * column % 2 + row * column % 3 == 0
        case 6: (row * column % 2 + row * column % 3) % 2 == 0
        default: ((row + column) % 2 + row * column % 3) % 2 == 0
        }
    }

    /// Level M (00) and the mask, BCH-protected and XORed with 101010000010010, in both copies.
    mutating func placeFormat(mask: Int) {
        let data = 0b00 << 3 | mask
        var bits = data << 10
        for shift in stride(from: 14, through: 10, by: -1) where bits >> shift & 1 == 1 {
            bits ^= 0x537 << (shift - 10)
        }
        let code = (data << 10 | bits) ^ 0x5412
        func bit(_ index: Int) -> Bool { code >> index & 1 == 1 }
        for index in 0..<6 { set(index, 8, bit(index)) }
        set(7, 8, bit(6))
        set(8, 8, bit(7))
        set(8, 7, bit(8))
        for index in 9..<15 { set(8, 14 - index, bit(index)) }
        for index in 0..<8 { set(8, size - 1 - index, bit(index)) }
        for index in 8..<15 { set(size - 15 + index, 8, bit(index)) }
        set(size - 8, 8, true)
    }
}

/// Bits appended most significant first.
private struct BitBuffer {
    var bytes: [UInt8] = []
    var count = 0

    mutating func append(_ value: Int, count bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if value >> shift & 1 == 1 { bytes[count / 8] |= 0x80 >> (count % 8) }
            count += 1
        }
    }
}

/// Reed-Solomon over GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
private enum ReedSolomon {
    static let (exp, log): ([UInt8], [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for index in 0..<255 {
            exp[index] = UInt8(value)
            log[value] = index
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for index in 255..<512 { exp[index] = exp[index - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : exp[log[Int(a)] + log[Int(b)]]
    }

    /// The generator (x − α⁰)(x − α¹)…(x − α^(degree−1)), highest coefficient first, leading 1 dropped.
    static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for index in 0..<degree {
            var next = [UInt8](repeating: 0, count: polynomial.count + 1)
            for (position, coefficient) in polynomial.enumerated() {
                next[position] ^= coefficient
                next[position + 1] ^= multiply(coefficient, exp[index])
            }
            polynomial = next
        }
        return Array(polynomial.dropFirst())
    }

    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<generator.count { remainder[index] ^= multiply(generator[index], factor) }
        }
        return remainder
    }
}
