import Foundation
import PlazaCore

extension Inflate {
    /// A canonical Huffman code of DEFLATE, decoded by table: one lookup on the next `fastBits` bits answers every code that
    /// short (nearly all of them in practice); longer codes are walked length by length the way RFC 1951 defines them.
    ///
    /// An entry packs what the symbol means, so the block loop needs no second lookup: the code's length in bits 0–3, the
    /// number of extra bits in 4–7, the kind in 8–9, and the value (a literal byte, or a base length or distance) in 16–31.
    /// Zero marks a fast-table slot no short code reaches.
    struct HuffmanTable: Sendable {
        static let fastBits = 10
        static let kindMask: UInt32 = 0x300
        static let literal: UInt32 = 0x000
        static let base: UInt32 = 0x100
        static let endOfBlock: UInt32 = 0x200
        static let invalid: UInt32 = 0x300

        /// Indexed by the next `fastBits` input bits (codes are sent most significant bit first, so stored bit-reversed).
        var fast: [UInt32]
        /// How many codes have each length 0–15, and the symbols ordered by (length, symbol): the canonical code.
        var counts: [Int]
        var sorted: [UInt16]
        /// The packed meaning of each symbol, without its length.
        let info: [UInt32]

        /// Nil when the lengths over-subscribe the code (more codes than bit patterns). An incomplete code is allowed, as zlib
        /// allows it: a bit pattern no code uses is refused when it is met.
        init?(lengths: ArraySlice<UInt8>, info: [UInt32]) {
            var counts = [Int](repeating: 0, count: 16)
            for length in lengths { counts[Int(length)] += 1 }
            var left = 1
            for length in 1...15 {
                left = left << 1 - counts[length]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            var sorted = [UInt16](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                sorted[offsets[Int(length)]] = UInt16(symbol)
                offsets[Int(length)] += 1
            }
            var fast = [UInt32](repeating: 0, count: 1 << Self.fastBits)
            var code = 0
            var index = 0
            for length in 1...Self.fastBits {
                for _ in 0..<counts[length] {
                    var reversed = 0
                    for bit in 0..<length { reversed |= (code >> bit & 1) << (length - 1 - bit) }
                    let entry = info[Int(sorted[index])] | UInt32(length)
                    for slot in stride(from: reversed, to: 1 << Self.fastBits, by: 1 << length) { fast[slot] = entry }
                    code += 1
                    index += 1
                }
                code <<= 1
            }
            self.fast = fast
            self.counts = counts
            self.sorted = sorted
            self.info = info
        }

        static func entry(_ kind: UInt32, value: Int, extraBits: Int = 0) -> UInt32 {
            UInt32(value) << 16 | kind | UInt32(extraBits) << 4
        }

        static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        static let lengthExtraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        static let distanceBases = [
            1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
            16385, 24577,
        ]
        static let distanceExtraBits = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

        /// Literal/length symbols 0–287: bytes, end of block, lengths; 286 and 287 exist only to complete the fixed code.
        static let literalInfo: [UInt32] = (0..<288).map { symbol in
            switch symbol {
            case 0..<256: entry(literal, value: symbol)
            case 256: endOfBlock
            case 257..<286: entry(base, value: lengthBases[symbol - 257], extraBits: lengthExtraBits[symbol - 257])
            default: invalid
            }
        }
        /// Distance symbols 0–31; 30 and 31 likewise.
        static let distanceInfo: [UInt32] = (0..<32).map { symbol in
            symbol < 30 ? entry(base, value: distanceBases[symbol], extraBits: distanceExtraBits[symbol]) : invalid
        }
        static let codeLengthInfo: [UInt32] = (0..<19).map { entry(literal, value: $0) }

        /// RFC 1951 §3.2.6.
        static let fixedLiterals = HuffmanTable(
            lengths: ([UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112) + [UInt8](repeating: 7, count: 24)
                + [UInt8](repeating: 8, count: 8))[...],
            info: literalInfo)!
        static let fixedDistances = HuffmanTable(lengths: [UInt8](repeating: 5, count: 32)[...], info: distanceInfo)!
    }
}

extension Inflate.StreamDecoder {
    /// The next symbol's entry, its code consumed; the caller has made sure at least 15 bits are buffered.
    @inline(__always) mutating func decode(_ table: Inflate.HuffmanTable) throws -> UInt32 {
        let entry = table.fast[Int(truncatingIfNeeded: bits) & (1 << Inflate.HuffmanTable.fastBits - 1)]
        guard entry == 0 else {
            let length = Int(entry & 15)
            bits >>= UInt64(length)
            bitCount -= length
            return entry
        }
        return try decodeLongCode(table)
    }

    /// RFC 1951's canonical decoding, one bit at a time, for codes longer than the fast table.
    mutating func decodeLongCode(_ table: Inflate.HuffmanTable) throws -> UInt32 {
        var code = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            code |= Int(truncatingIfNeeded: bits >> UInt64(length - 1) & 1)
            let count = table.counts[length]
            if code - first < count {
                _ = take(length)
                return table.info[Int(table.sorted[index + code - first])] | UInt32(length)
            }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw Inflate.Failure.damaged
    }

    /// A dynamic block's header: the code-length code, then the literal/length and distance codes' lengths in it.
    mutating func readDynamicTables() throws -> (literals: Inflate.HuffmanTable, distances: Inflate.HuffmanTable) {
        refill()
        let literalCount = take(5) + 257
        let distanceCount = take(5) + 1
        let codeLengthCount = take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw Inflate.Failure.damaged }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            if bitCount < 3 { refill() }
            codeLengthLengths[order[index]] = UInt8(take(3))
        }
        try checkTruncation()
        guard let codeLengths = Inflate.HuffmanTable(lengths: codeLengthLengths[...], info: Inflate.HuffmanTable.codeLengthInfo) else {
            throw Inflate.Failure.damaged
        }
        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var index = 0
        while index < lengths.count {
            try checkTruncation()
            if bitCount < 32 { refill() }
            let symbol = Int(try decode(codeLengths) >> 16)
            if symbol < 16 {
                lengths[index] = UInt8(symbol)
                index += 1
                continue
            }
            // 16 repeats the previous length 3–6 times, 17 and 18 write 3–10 and 11–138 zeros.
            guard symbol != 16 || index > 0 else { throw Inflate.Failure.damaged }
            let repeated = symbol == 16 ? lengths[index - 1] : 0
            let run = symbol == 16 ? 3 + take(2) : symbol == 17 ? 3 + take(3) : 11 + take(7)
            guard run <= lengths.count - index else { throw Inflate.Failure.damaged }
            for _ in 0..<run {
                lengths[index] = repeated
                index += 1
            }
        }
        try checkTruncation()
        // A block must be able to end.
        guard lengths[256] != 0, let literals = Inflate.HuffmanTable(lengths: lengths[..<literalCount], info: Inflate.HuffmanTable.literalInfo),
            let distances = Inflate.HuffmanTable(lengths: lengths[literalCount...], info: Inflate.HuffmanTable.distanceInfo)
        else { throw Inflate.Failure.damaged }
        return (literals, distances)
    }
}
