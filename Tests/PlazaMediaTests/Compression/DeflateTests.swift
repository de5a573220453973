import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// zlib's compressor as Plaza calls it, read back by `Inflate`, byte for byte where zlib's output is known, and beside
/// streams another encoder wrote (`DeflateTests+Fixtures.swift`).
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

    /// Streams the hand-written compressor Plaza had before zlib wrote, shown then to decompress with Python's zlib:
    /// a second encoder's choices (block splits, lazy matches) that the decoder must read as zlib does.
    @Test func streamsOfAnotherEncoderReadBack() throws {
        for (input, stream) in [
            (InflateTests.wordsInput, Self.wordsStream), (InflateTests.farInput, Self.farStream),
            (Self.pixelsInput, Self.pixelsStream),
        ] {
            #expect(try Inflate.zlib(stream, limit: input.count) == input)
            #expect(
                try Self.roundTrip(input).count <= stream.count + stream.count / 50,
                "zlib compresses as well as that encoder"
            )
        }
    }

    @Test func eachBlockIsWrittenTheCheapestWay() throws {
        // Random bytes are stored: the stream is the input plus a few bytes a block and the 6 of the zlib wrapper.
        let noise = Self.random(100_000, seed: 4)
        let stored = try Self.roundTrip(noise)
        #expect(InflateTests.firstBlockType(stored) == 0)
        #expect(stored.count <= noise.count + noise.count / 1_000 + 6, "\(stored.count)")
        // A few bytes are not worth a code table of their own; a page of words is.
        #expect(InflateTests.firstBlockType(try Self.roundTrip(Array("hello hello hello".utf8))) == 1)
        let words = try Self.roundTrip(InflateTests.wordsInput)
        #expect(InflateTests.firstBlockType(words) == 2)
        #expect(words.count < InflateTests.wordsInput.count / 5, "\(words.count)")
        // A long run is matches of 258 at distance 1, with one-bit codes: a few bits a match.
        #expect(try Self.roundTrip([UInt8](repeating: 0, count: 100_000)).count < 150)
    }
}
