import PlazaCore

extension Deflate {
    /// A canonical Huffman code ready to write: per symbol, its code bit-reversed (codes are sent most significant bit
    /// first into a least-significant-first stream) in bits 8–23 and its length in bits 0–7.
    struct HuffmanCodes: Sendable {
        let literals: [UInt32]
        let distances: [UInt32]

        init(literalLengths: [UInt8], distanceLengths: [UInt8]) {
            literals = Self.canonical(literalLengths)
            distances = Self.canonical(distanceLengths)
        }

        /// RFC 1951 §3.2.2: codes of one length are consecutive in symbol order, shorter lengths first.
        static func canonical(_ lengths: [UInt8]) -> [UInt32] {
            var counts = [Int](repeating: 0, count: 16)
            for length in lengths { counts[Int(length)] += 1 }
            counts[0] = 0
            var next = [Int](repeating: 0, count: 16)
            var code = 0
            for bits in 1...15 {
                code = (code + counts[bits - 1]) << 1
                next[bits] = code
            }
            return lengths.map { length in
                guard length > 0 else { return 0 }
                let code = next[Int(length)]
                next[Int(length)] += 1
                var reversed = 0
                for bit in 0..<Int(length) { reversed |= (code >> bit & 1) << (Int(length) - 1 - bit) }
                return UInt32(reversed) << 8 | UInt32(length)
            }
        }

        /// The bits the block's symbols take in this code, without extra bits.
        func dataBits(_ literalFrequencies: UnsafeBufferPointer<Int>, _ distanceFrequencies: UnsafeBufferPointer<Int>) -> Int {
            var bits = 0
            for (symbol, frequency) in literalFrequencies.enumerated() { bits += frequency * Int(literals[symbol] & 0xFF) }
            for (symbol, frequency) in distanceFrequencies.enumerated() { bits += frequency * Int(distances[symbol] & 0xFF) }
            return bits
        }
    }

    /// RFC 1951 §3.2.6: literals 0–143 in 8 bits, 144–255 in 9, 256–279 in 7, 280–287 in 8; distances in 5.
    static let fixedCodes = HuffmanCodes(
        literalLengths: [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112) + [UInt8](repeating: 7, count: 24)
            + [UInt8](repeating: 8, count: 8),
        distanceLengths: [UInt8](repeating: 5, count: 32))

    /// A dynamic block's codes and its header: the code lengths, run-length coded with symbols 16–18 and themselves
    /// Huffman coded with the code-length code.
    struct DynamicCodes {
        static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

        let codes: HuffmanCodes
        let literalCount: Int
        let distanceCount: Int
        /// The run-length coded lengths: a code-length symbol 0–18 in bits 0–7, its extra bits' value from bit 8.
        let runs: [UInt32]
        let codeLengthCodes: [UInt32]
        let codeLengthCount: Int
        let headerBits: Int

        init(literals: UnsafeBufferPointer<Int>, distances: UnsafeBufferPointer<Int>) {
            let literalLengths = Deflate.codeLengths(literals, limit: 15)
            let distanceLengths = Deflate.codeLengths(distances, limit: 15)
            codes = HuffmanCodes(literalLengths: literalLengths, distanceLengths: distanceLengths)
            // HLIT and HDIST: trailing unused symbols are left out (at least 257 literals and one distance).
            literalCount = max(257, (literalLengths.lastIndex { $0 != 0 } ?? 0) + 1)
            distanceCount = max(1, (distanceLengths.lastIndex { $0 != 0 } ?? 0) + 1)
            // The two lists are run-length coded apart, as zlib does, so no run crosses from one into the other.
            runs = Self.runLengths(literalLengths[..<literalCount]) + Self.runLengths(distanceLengths[..<distanceCount])
            var frequencies = [Int](repeating: 0, count: 19)
            for run in runs { frequencies[Int(run & 0xFF)] += 1 }
            let codeLengthLengths = frequencies.withUnsafeBufferPointer { Deflate.codeLengths($0, limit: 7) }
            codeLengthCodes = HuffmanCodes.canonical(codeLengthLengths)
            codeLengthCount = max(4, (Self.codeLengthOrder.lastIndex { codeLengthLengths[$0] != 0 } ?? 0) + 1)
            var bits = 5 + 5 + 4 + 3 * codeLengthCount
            for run in runs {
                let symbol = Int(run & 0xFF)
                bits += Int(codeLengthLengths[symbol]) + Self.extraBits(symbol)
            }
            headerBits = bits
        }

        /// Extra bits after code-length symbols 16 (repeat the last length 3–6 times), 17 (3–10 zeros), 18 (11–138 zeros).
        static func extraBits(_ symbol: Int) -> Int {
            switch symbol {
            case 16: 2
            case 17: 3
            case 18: 7
            default: 0
            }
        }

        static func runLengths(_ lengths: ArraySlice<UInt8>) -> [UInt32] {
            var runs: [UInt32] = []
            var index = lengths.startIndex
            while index < lengths.endIndex {
                let length = lengths[index]
                var end = index + 1
                while end < lengths.endIndex, lengths[end] == length { end += 1 }
                var left = end - index
                index = end
                if length == 0 {
                    while left >= 11 {
                        let run = min(left, 138)
                        runs.append(18 | UInt32(run - 11) << 8)
                        left -= run
                    }
                    if left >= 3 {
                        runs.append(17 | UInt32(left - 3) << 8)
                        left = 0
                    }
                } else {
                    runs.append(UInt32(length))
                    left -= 1
                    while left >= 3 {
                        let run = min(left, 6)
                        runs.append(16 | UInt32(run - 3) << 8)
                        left -= run
                    }
                }
                runs += [UInt32](repeating: UInt32(length), count: left)
            }
            return runs
        }

        func writeHeader(_ writer: inout BitWriter) {
            writer.write(UInt32(literalCount - 257), 5)
            writer.write(UInt32(distanceCount - 1), 5)
            writer.write(UInt32(codeLengthCount - 4), 4)
            for symbol in Self.codeLengthOrder.prefix(codeLengthCount) { writer.write(codeLengthCodes[symbol] & 0xFF, 3) }
            for run in runs {
                let symbol = Int(run & 0xFF)
                let code = codeLengthCodes[symbol]
                writer.write(code >> 8, Int(code & 0xFF))
                let extra = Self.extraBits(symbol)
                if extra > 0 { writer.write(run >> 8, extra) }
            }
        }
    }

    /// Huffman code lengths for `frequencies`, none longer than `limit`. Every code has at least two symbols and is
    /// complete (a symbol that never occurs gets a length when fewer than two do), which every inflater accepts: zlib does
    /// the same for the sake of old pkzip decoders.
    ///
    /// Lengths come from the Huffman tree built over the symbols sorted by frequency (two queues, no heap); a tree too deep
    /// is flattened the way miniz does it: lengths past the limit are clamped, then codes are moved down a level until the
    /// Kraft sum is exactly one again. Ties are broken by symbol, so the result is the same on every run and platform.
    static func codeLengths(_ frequencies: UnsafeBufferPointer<Int>, limit: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        var used = frequencies.indices.filter { frequencies[$0] > 0 }
        if used.count < 2 {
            // Two codes of one bit: the symbol used (if any) and the lowest unused one(s).
            var symbol = 0
            while used.count < 2 {
                if !used.contains(symbol) { used.append(symbol) }
                symbol += 1
            }
            for symbol in used { lengths[symbol] = 1 }
            return lengths
        }
        used.sort { (frequencies[$0], $0) < (frequencies[$1], $1) }
        let leafCount = used.count
        // Internal node k joins the two lightest of the unjoined leaves and nodes; nodes come out in weight order, so two
        // queues (leaves, nodes) replace a heap.
        var nodeWeight = [Int](repeating: 0, count: leafCount - 1)
        var nodeParent = [Int](repeating: 0, count: leafCount - 1)
        var leafParent = [Int](repeating: 0, count: leafCount)
        var nextLeaf = 0
        var nextNode = 0
        for node in 0..<(leafCount - 1) {
            for _ in 0..<2 {
                if nextLeaf < leafCount, nextNode >= node || frequencies[used[nextLeaf]] <= nodeWeight[nextNode] {
                    nodeWeight[node] += frequencies[used[nextLeaf]]
                    leafParent[nextLeaf] = node
                    nextLeaf += 1
                } else {
                    nodeWeight[node] += nodeWeight[nextNode]
                    nodeParent[nextNode] = node
                    nextNode += 1
                }
            }
        }
        var nodeDepth = [Int](repeating: 0, count: leafCount - 1)
        for node in stride(from: leafCount - 3, through: 0, by: -1) { nodeDepth[node] = nodeDepth[nodeParent[node]] + 1 }
        var counts = [Int](repeating: 0, count: leafCount + 1)
        for leaf in 0..<leafCount { counts[nodeDepth[leafParent[leaf]] + 1] += 1 }

        if counts.count > limit + 1 {
            for depth in (limit + 1)..<counts.count {
                counts[limit] += counts[depth]
                counts[depth] = 0
            }
            var kraft = 0
            for depth in 1...limit { kraft += counts[depth] << (limit - depth) }
            while kraft > 1 << limit {
                counts[limit] -= 1
                for depth in stride(from: limit - 1, through: 1, by: -1) where counts[depth] > 0 {
                    counts[depth] -= 1
                    counts[depth + 1] += 2
                    break
                }
                kraft -= 1
            }
        }
        // The most frequent symbols take the shortest lengths.
        var next = leafCount
        for depth in 1..<min(counts.count, limit + 1) {
            for _ in 0..<counts[depth] {
                next -= 1
                lengths[used[next]] = UInt8(depth)
            }
        }
        return lengths
    }

    /// Per match length 3–258: its code 0–28, the count of extra bits and their value (see `BlockWriter.lengthInfo`).
    static let lengthInfoTable: [UInt32] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        // 258 has a code of its own (285) even though 227 + 31 would reach it.
        let code = length == 258 ? 28 : Inflate.HuffmanTable.lengthBases.lastIndex { $0 <= length }!
        let extra = Inflate.HuffmanTable.lengthExtraBits[code]
        return UInt32(code) | UInt32(extra) << 8 | UInt32(length - Inflate.HuffmanTable.lengthBases[code]) << 16
    }

    static let distanceInfoTable: [UInt32] = (0..<30).map { code in
        UInt32(Inflate.HuffmanTable.distanceBases[code]) | UInt32(Inflate.HuffmanTable.distanceExtraBits[code]) << 16
    }

    /// Distances 1–256 by `distance - 1`, larger ones by `256 + (distance - 1) >> 7`: from 257 on every code spans whole
    /// 128s.
    static let distanceCodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        for code in 0..<30 {
            let base = Inflate.HuffmanTable.distanceBases[code] - 1
            for zeroBased in base..<(base + 1 << Inflate.HuffmanTable.distanceExtraBits[code]) {
                table[zeroBased < 256 ? zeroBased : 256 + zeroBased >> 7] = UInt8(code)
            }
        }
        return table
    }()
}
