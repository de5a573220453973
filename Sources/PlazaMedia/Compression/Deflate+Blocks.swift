import PlazaCore

extension Deflate {
    /// DEFLATE's bit order: values least significant bit first (Huffman codes are stored bit-reversed to match).
    struct BitWriter {
        var bytes: [UInt8]
        var bits: UInt64 = 0
        /// Bits held in `bits`, always fewer than 32 between calls.
        var count = 0

        init(capacity: Int) {
            bytes = []
            bytes.reserveCapacity(capacity)
        }

        /// Appends the low `length` bits of `value` (at most 32).
        @inline(__always) mutating func write(_ value: UInt32, _ length: Int) {
            bits |= UInt64(value) << UInt64(count)
            count += length
            if count >= 32 {
                let word = UInt32(truncatingIfNeeded: bits)
                bytes.append(UInt8(truncatingIfNeeded: word))
                bytes.append(UInt8(truncatingIfNeeded: word >> 8))
                bytes.append(UInt8(truncatingIfNeeded: word >> 16))
                bytes.append(UInt8(truncatingIfNeeded: word >> 24))
                bits >>= 32
                count -= 32
            }
        }

        /// Pads with zero bits to a whole byte and writes out everything held.
        mutating func alignToByte() {
            while count > 0 {
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                count -= 8
            }
            bits = 0
            count = 0
        }
    }

    /// Collects one block's symbols and their frequencies, and writes the block when it is full: as dynamic Huffman, fixed
    /// Huffman or stored, whichever is shortest.
    struct BlockWriter {
        let input: UnsafeBufferPointer<UInt8>
        /// A literal is its byte; a match is its length (3–258) in bits 16–24 and its distance (1–32768) in bits 0–15.
        let symbols: UnsafeMutablePointer<UInt32>
        var symbolCount = 0
        /// Literal/length symbols 0–285 and distance symbols 0–29, with the padding the fixed code has.
        let literalFrequencies: UnsafeMutablePointer<Int>
        let distanceFrequencies: UnsafeMutablePointer<Int>
        /// The input this block covers so far, for a stored block.
        var blockStart = 0
        var blockEnd = 0
        /// Per match length 3–258: its code 0–28 in bits 0–7, the number of extra bits in 8–15, their value in 16–23.
        let lengthInfo: UnsafeMutablePointer<UInt32>
        /// Per distance code 0–29: its base distance in bits 0–15, the number of extra bits in 16–23.
        let distanceInfo: UnsafeMutablePointer<UInt32>
        /// zlib's `_dist_code`: the codes of distances 1–256 directly, then of larger ones by 128s.
        let distanceCodes: UnsafeMutablePointer<UInt8>

        init(input: UnsafeBufferPointer<UInt8>) {
            self.input = input
            symbols = .allocate(capacity: Deflate.blockSymbols)
            literalFrequencies = .allocate(capacity: 288)
            literalFrequencies.initialize(repeating: 0, count: 288)
            distanceFrequencies = .allocate(capacity: 32)
            distanceFrequencies.initialize(repeating: 0, count: 32)
            lengthInfo = .allocate(capacity: 259)
            lengthInfo.initialize(from: Deflate.lengthInfoTable, count: 259)
            distanceInfo = .allocate(capacity: 30)
            distanceInfo.initialize(from: Deflate.distanceInfoTable, count: 30)
            distanceCodes = .allocate(capacity: 512)
            distanceCodes.initialize(from: Deflate.distanceCodeTable, count: 512)
        }

        func deallocate() {
            symbols.deallocate()
            literalFrequencies.deallocate()
            distanceFrequencies.deallocate()
            lengthInfo.deallocate()
            distanceInfo.deallocate()
            distanceCodes.deallocate()
        }

        /// The distance symbol (0–29) of a distance 1–32768, by zlib's two-part table.
        @inline(__always) func distanceCode(_ distance: Int) -> Int {
            let zeroBased = distance - 1
            return Int(zeroBased < 256 ? distanceCodes[zeroBased] : distanceCodes[256 + zeroBased >> 7])
        }

        @inline(__always) mutating func literal(_ byte: UInt8, writer: inout BitWriter) {
            symbols[symbolCount] = UInt32(byte)
            literalFrequencies[Int(byte)] += 1
            symbolCount += 1
            blockEnd += 1
            if symbolCount == Deflate.blockSymbols { flush(last: false, writer: &writer) }
        }

        @inline(__always) mutating func match(length: Int, distance: Int, writer: inout BitWriter) {
            symbols[symbolCount] = UInt32(truncatingIfNeeded: length << 16 | distance)
            literalFrequencies[257 + Int(lengthInfo[length] & 0xFF)] += 1
            distanceFrequencies[distanceCode(distance)] += 1
            symbolCount += 1
            blockEnd += length
            if symbolCount == Deflate.blockSymbols { flush(last: false, writer: &writer) }
        }

        /// Writes what is left as the final block (an empty one for empty input).
        mutating func finish(_ writer: inout BitWriter) {
            flush(last: true, writer: &writer)
        }

        mutating func flush(last: Bool, writer: inout BitWriter) {
            literalFrequencies[256] = 1
            let literals = UnsafeBufferPointer(start: literalFrequencies, count: 286)
            let distances = UnsafeBufferPointer(start: distanceFrequencies, count: 30)
            var extraBits = 0
            for code in 0..<29 { extraBits += literals[257 + code] * Inflate.HuffmanTable.lengthExtraBits[code] }
            for code in 0..<30 { extraBits += distances[code] * Inflate.HuffmanTable.distanceExtraBits[code] }

            let dynamic = DynamicCodes(literals: literals, distances: distances)
            let dynamicBits = 3 + dynamic.headerBits + dynamic.codes.dataBits(literals, distances) + extraBits
            let fixedBits = 3 + Deflate.fixedCodes.dataBits(literals, distances) + extraBits
            let stored = blockEnd - blockStart
            // Each stored piece of at most 65,535 bytes costs a 3-bit header, padding and LEN/NLEN: 40 bits or fewer.
            let storedBits = stored * 8 + max(1, (stored + 65534) / 65535) * 40

            if storedBits < min(dynamicBits, fixedBits) {
                writeStored(last: last, writer: &writer)
            } else if fixedBits <= dynamicBits {
                writer.write(last ? 1 : 0, 1)
                writer.write(1, 2)
                writeSymbols(Deflate.fixedCodes, writer: &writer)
            } else {
                writer.write(last ? 1 : 0, 1)
                writer.write(2, 2)
                dynamic.writeHeader(&writer)
                writeSymbols(dynamic.codes, writer: &writer)
            }
            symbolCount = 0
            blockStart = blockEnd
            literalFrequencies.update(repeating: 0, count: 288)
            distanceFrequencies.update(repeating: 0, count: 32)
        }

        /// The block's input as it is, in pieces of at most 65,535 bytes (LEN, its complement NLEN, the bytes).
        func writeStored(last: Bool, writer: inout BitWriter) {
            var start = blockStart
            repeat {
                let length = min(65535, blockEnd - start)
                let final = last && start + length == blockEnd
                writer.write(final ? 1 : 0, 1)
                writer.write(0, 2)
                writer.alignToByte()
                writer.write(UInt32(length) | UInt32(length ^ 0xFFFF) << 16, 32)
                writer.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<(start + length)]))
                start += length
            } while start < blockEnd
        }

        func writeSymbols(_ codes: HuffmanCodes, writer: inout BitWriter) {
            codes.literals.withUnsafeBufferPointer { literalCodes in
                codes.distances.withUnsafeBufferPointer { distanceTable in
                    for index in 0..<symbolCount {
                        let symbol = symbols[index]
                        if symbol < 256 {
                            let code = literalCodes[Int(symbol)]
                            writer.write(code >> 8, Int(code & 0xFF))
                            continue
                        }
                        // A length's code and extra bits (at most 15 + 5), then the distance's (at most 15 + 13), two writes.
                        let length = lengthInfo[Int(symbol >> 16)]
                        let code = literalCodes[257 + Int(length & 0xFF)]
                        let codeLength = Int(code & 0xFF)
                        writer.write(code >> 8 | (length >> 16) << UInt32(codeLength), codeLength + Int(length >> 8 & 0xFF))
                        let distance = Int(symbol & 0xFFFF)
                        let distanceCode = distanceCode(distance)
                        let info = distanceInfo[distanceCode]
                        let dcode = distanceTable[distanceCode]
                        let dcodeLength = Int(dcode & 0xFF)
                        let extra = UInt32(distance) - (info & 0xFFFF)
                        writer.write(dcode >> 8 | extra << UInt32(dcodeLength), dcodeLength + Int(info >> 16))
                    }
                    let end = literalCodes[256]
                    writer.write(end >> 8, Int(end & 0xFF))
                }
            }
        }
    }
}
