import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// The compressor read back by `Inflate` (which zlib-made streams test on their own), compared with zlib's own output
/// where the two must agree, and with streams zlib was shown to read (`DeflateTests+Fixtures.swift`).
@Suite struct DeflateTests {
    static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = InflateTests.SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    static func roundTrip(_ input: [UInt8]) throws -> [UInt8] {
        let stream = Deflate.zlib(input)
        #expect(try Inflate.zlib(stream, limit: input.count) == input)
        return stream
    }

    enum Sample: String, CaseIterable, Sendable {
        case empty, oneByte, allSame, random, text, longRepeats, over64KB

        var input: [UInt8] {
            switch self {
            case .empty: return []
            case .oneByte: return [0xA7]
            case .allSame: return [UInt8](repeating: 0x41, count: 70_000)
            case .random: return DeflateTests.random(100_000, seed: 1)
            case .text: return InflateTests.wordsInput + InflateTests.wordsInput + InflateTests.wordsInput
            // Runs far longer than the longest match (258), of one byte and of a few, with noise between them.
            case .longRepeats:
                var bytes = [UInt8](repeating: 7, count: 1_000) + DeflateTests.random(50, seed: 2)
                bytes += Array("abc".utf8) + [UInt8](repeating: 0x61, count: 600)
                for _ in 0..<100 { bytes += Array("0123456789".utf8) }
                return bytes + [UInt8](repeating: 7, count: 259)
            // Text, random bytes that become stored blocks over 64 KB, and runs: blocks of every kind in one stream.
            case .over64KB:
                var bytes = InflateTests.farInput + InflateTests.farInput + InflateTests.farInput
                bytes += DeflateTests.random(140_000, seed: 3)
                return bytes + [UInt8](repeating: 0, count: 70_000) + InflateTests.wordsInput
            }
        }
    }

    @Test(arguments: Sample.allCases)
    func roundTripsThroughInflate(_ sample: Sample) throws {
        let input = sample.input
        let stream = try Self.roundTrip(input)
        #expect(Deflate.zlib(input) == stream, "the same input gives the same bytes")
    }

    @Test func theSmallestInputsMatchZlibByteForByte() {
        // python3 -c 'import zlib; print(zlib.compress(b"", 6).hex(), zlib.compress(b"a", 6).hex())'
        #expect(Deflate.zlib([]) == [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        #expect(Deflate.zlib(Array("a".utf8)) == [0x78, 0x9C, 0x4B, 0x04, 0x00, 0x00, 0x62, 0x00, 0x62])
    }

    @Test func ourStreamsAreTheOnesZlibWasShownToRead() throws {
        for (input, stream) in [
            (InflateTests.wordsInput, Self.wordsStream), (InflateTests.farInput, Self.farStream), (Self.pixelsInput, Self.pixelsStream),
        ] {
            #expect(Deflate.zlib(input) == stream)
            #expect(try Inflate.zlib(stream, limit: input.count) == input)
        }
    }

    @Test func eachBlockIsWrittenTheCheapestWay() throws {
        // Random bytes are stored: the stream is the input plus 5 bytes a block and the 6 of the zlib wrapper.
        let noise = Self.random(100_000, seed: 4)
        let stored = try Self.roundTrip(noise)
        #expect(InflateTests.firstBlockType(stored) == 0)
        #expect(stored.count <= noise.count + 5 * (noise.count / Deflate.blockSymbols + 1) + 6, "\(stored.count)")
        // A few bytes are not worth a code table of their own; a page of words is.
        #expect(InflateTests.firstBlockType(try Self.roundTrip(Array("hello hello hello".utf8))) == 1)
        let words = try Self.roundTrip(InflateTests.wordsInput)
        #expect(InflateTests.firstBlockType(words) == 2)
        #expect(words.count < InflateTests.wordsInput.count / 5, "\(words.count)")
        // A long run is matches of 258 at distance 1, with one-bit codes: a few bits a match.
        #expect(try Self.roundTrip([UInt8](repeating: 0, count: 100_000)).count < 150)
    }

    /// Matches can make a block cover more than 64 K of input; stored, it takes pieces of at most 65,535 bytes. Written
    /// directly, since a block that long is rarely cheapest stored.
    @Test func aLongStoredBlockIsSplitInto64KPieces() throws {
        let input = Self.random(150_000, seed: 9)
        var writer = Deflate.BitWriter(capacity: input.count + 64)
        writer.bytes += [0x78, 0x9C]
        input.withUnsafeBufferPointer { buffer in
            var blocks = Deflate.BlockWriter(input: buffer)
            defer { blocks.deallocate() }
            blocks.blockEnd = buffer.count
            blocks.writeStored(last: true, writer: &writer)
        }
        writer.alignToByte()
        writer.bytes += InflateTests.bigEndianAdler32(input)
        // Three pieces (65,535 + 65,535 + 18,930), each a header byte and LEN/NLEN.
        #expect(writer.bytes.count == 2 + 3 * 5 + input.count + 4)
        #expect(try Inflate.zlib(writer.bytes, limit: input.count) == input)
    }

    @Test func matchesReachExactly32768BytesBackAndNoFurther() throws {
        let window = Self.random(32768, seed: 5)
        // The second copy is all matches 32,768 back: it costs a few hundred bytes, not another 32 K.
        let repeated = try Self.roundTrip(window + window)
        #expect(repeated.count < 32768 + 600, "\(repeated.count)")
        // One byte further apart, nothing matches and both copies are stored.
        let tooFar = window + [0x55] + window
        #expect(try Self.roundTrip(tooFar).count > tooFar.count, "random bytes as they are, plus block headers")
    }

    /// Copies of every length 3–258 and of distances at both ends of every distance code, so every code and every count
    /// of extra bits is written and read back: a table or extra-bit value off by one changes the output and fails here.
    @Test func everyLengthAndDistanceCodeRoundTrips() throws {
        var data = Self.random(33_000, seed: 6)
        let distances = Inflate.HuffmanTable.distanceBases.indices.flatMap { code in
            let base = Inflate.HuffmanTable.distanceBases[code]
            return [base, base + (1 << Inflate.HuffmanTable.distanceExtraBits[code]) - 1]
        }
        var noise = InflateTests.SplitMix64(seed: 7)
        func copy(length: Int, distance: Int) {
            for _ in 0..<length { data.append(data[data.count - distance]) }
            // Two random bytes end the match where it was meant to end.
            data += [UInt8(truncatingIfNeeded: noise.next()), UInt8(truncatingIfNeeded: noise.next())]
        }
        for (index, distance) in distances.enumerated() { copy(length: 3 + index * 37 % 256, distance: distance) }
        for length in 3...258 { copy(length: length, distance: 1 + length * 97 % 30_000) }
        let stream = try Self.roundTrip(data)
        #expect(stream.count < 33_000 + 3_000, "the copies cost far less than their \(data.count - 33_000) bytes: \(stream.count)")
    }

    @Test func codeLengthsAreLimitedAndComplete() {
        func lengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
            frequencies.withUnsafeBufferPointer { Deflate.codeLengths($0, limit: limit) }
        }
        func kraftSum(_ lengths: [UInt8], limit: Int) -> Int {
            lengths.filter { $0 > 0 }.reduce(0) { $0 + 1 << (limit - Int($1)) }
        }
        // Fibonacci frequencies make the deepest Huffman tree: 30 symbols would need 29 bits for the rarest.
        var fibonacci = [1, 1]
        while fibonacci.count < 30 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        let literal = lengths(fibonacci + [Int](repeating: 0, count: 256), limit: 15)
        #expect(literal.max() == 15 && literal.prefix(30).allSatisfy { $0 > 0 } && literal.dropFirst(30).allSatisfy { $0 == 0 })
        #expect(kraftSum(literal, limit: 15) == 1 << 15)
        #expect(literal[29] <= literal[28] && literal[1] >= literal[2], "more frequent symbols never get longer codes")
        let codeLength = lengths(Array(fibonacci.prefix(19)), limit: 7)
        #expect(codeLength.max() == 7 && kraftSum(codeLength, limit: 7) == 1 << 7)
        // Unlimited where the limit is not reached: the optimal code.
        #expect(lengths([1, 1, 2, 4], limit: 15) == [3, 3, 2, 1])
        #expect(lengths([5, 5, 5, 5], limit: 15) == [2, 2, 2, 2])
        // A code of one symbol or none still gets two one-bit codes.
        #expect(lengths([0, 9, 0], limit: 15) == [1, 1, 0])
        #expect(lengths([0, 0, 0], limit: 15) == [1, 1, 0])
    }

    /// Literals alone (no matching) with Fibonacci-like frequencies: the dynamic code must be cut to 15 bits, and a
    /// length of 16 or more could not even be written in the block header.
    @Test func aSkewedBlockIsWrittenWithLimitedCodes() throws {
        var counts = [1, 1]
        while counts.count < 24 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        var input = counts.enumerated().flatMap { [UInt8](repeating: UInt8($0.offset), count: $0.element) }
        var generator = InflateTests.SplitMix64(seed: 8)
        for index in input.indices.reversed() { input.swapAt(index, Int(generator.next() % UInt64(index + 1))) }
        let stream = Deflate.zlib(input, effort: Deflate.Effort(maxLazy: 0))
        #expect(InflateTests.firstBlockType(stream) == 2)
        #expect(try Inflate.zlib(stream, limit: input.count) == input)
    }
}
