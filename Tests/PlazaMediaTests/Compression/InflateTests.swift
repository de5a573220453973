import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// zlib streams made once by Python 3.11's zlib (`python3 gen.py` in the PR that added them; each input is rebuilt below):
/// `zlib.compress(stored, 0)` (stored blocks); `compressobj(9, DEFLATED, 15, 9, Z_FIXED)` of the fox sentence (fixed
/// Huffman); `zlib.compress(words, 9)` (one dynamic-Huffman block); the far-match data in two halves with a
/// `Z_SYNC_FLUSH` between them (several blocks, an empty stored one, matches 22,000 bytes back); and
/// `zlib.compress(bytes(1 << 20), 9)`, a mebibyte of zeros in about a kilobyte (a small decompression bomb).
@Suite struct InflateTests {
    static let stored = fixture(
        [
            "eAEB6AMX/AAHDhUcIyoxOD9GTVRcY2pxeH+GjZSboqmwuL/GzdTb4unw9/4FDBQbIikwNz5FTFNaYWhwd36FjJOaoaivtr3EzNPa4ejv9v0ECxIZICgv",
            "Nj1ES1JZYGdudXyEi5KZoKeutbzDytHY4Ofu9fwDChEYHyYtNDxDSlFYX2ZtdHuCiZCYn6attLvCydDX3uXs9PsCCRAXHiUsMzpBSFBXXmVsc3qBiI+W",
            "naSss7rByM/W3eTr8vkACA8WHSQrMjlAR05VXGRrcnmAh46VnKOqsbjAx87V3OPq8fj/Bg0UHCMqMTg/Rk1UW2JpcHh/ho2Um6KpsLe+xczU2+Lp8Pf+",
            "BQwTGiEoMDc+RUxTWmFob3Z9hIyTmqGor7a9xMvS2eDo7/b9BAsSGSAnLjU8REtSWWBnbnV8g4qRmKCnrrW8w8rR2N/m7fT8AwoRGB8mLTQ7QklQWF9m",
            "bXR7gomQl56lrLS7wsnQ197l7PP6AQgQFx4lLDM6QUhPVl1kbHN6gYiPlp2kq7K5wMjP1t3k6/L5AAcOFRwkKzI5QEdOVVxjanF4gIeOlZyjqrG4v8bN",
            "1Nzj6vH4/wYNFBsiKTA4P0ZNVFtiaXB3foWMlJuiqbC3vsXM09rh6PD3/gUMExohKC82PURMU1phaG92fYSLkpmgqK+2vcTL0tng5+71/AQLEhkgJy41",
            "PENKUVhgZ251fIOKkZifpq20vMPK0djf5u30+wIJEBgfJi00O0JJUFdeZWx0e4KJkJeepayzusHI0Nfe5ezz+gEIDxYdJCwzOkFIT1ZdZGtyeYCIj5ad",
            "pKuyucDHztXc5Ovy+QAHDhUcIyoxOEBHTlVcY2pxeH+GjZSco6qxuL/GzdTb4unw+P8GDRQbIikwNz5FTFRbYmlwd36FjJOaoaiwt77FzNPa4ejv9v0E",
            "DBMaISgvNj1ES1JZYGhvdn2Ei5KZoKeutbzEy9LZ4Ofu9fwDChEYICcuNTxDSlFYX2ZtdHyDipGYn6attLvCydDY3+bt9PsCCRAXHiUsNDtCSVBXXmVs",
            "c3qBiJCXnqWss7rByM/W3eTs8/oBCA8WHSQrMjlASE9WXWRrcnmAh46VnKSrsrnAx87V3OPq8fgABw4VHCMqMTg/Rk1UXGNqcXh/ho2Um6KpsLi/xs3U",
            "2+Lp8Pf+BQwUGyIpMDc+RUxTWmFocHd+hYyTmqGor7a9xMzT2uHo7/b9BAsSGSAoLzY9REtSWWBnbnV8hIuSmaCnrrW8w8rR2ODn7vX8AwoRGB8mLTQ8",
            "Q0pRWF9mbXR7gomQmJ+mrbS7wsnQ197l7PT7AgkQFx4lLDM6QUhQV15lbHN6gYiPlp2NVO2O",
        ].joined()
    )
    static let fixed = fixture("eAEryUhVKCzNTM5WSCrKL89TSMuvUMgqzS0oVsgvSy1SKAFK5yRWVSqk5Kdbg3mjikcVjyqmqmIAmXVGoA==")
    static let dynamic = fixture(
        [
            "eNp9V1tywjAMvEquFiDtMNDCNDDT6elbZMf7kNIfFzvWc1eSe1rWy7Te3ubp7WtZptNrez2vj/Pn+3SdP+7t5H6df+a2P5wvCy3tS7t0Pl6e9+n4d+u5",
            "JuG29o+P5ftxuN2GTNjezLKysEFayGbI0M+hMyx3QyHatL9O4xe2ETcWt+NeNuPuWIiGusoZSWhsYhnfYT3koBbGOXFNHYxR+odA6Ig7mhLEqNa76h6Y",
            "ONxU9U2/oHY0UAQSv7qPTU43lEUCcmgTQoxTphZFnu6Rxi6SoCMn26lghHxZ8MS/uLN9LkA3CsBnTWBpvm9ADg4jFnZdARTsuqsaRDsEHVgXuoCpsy3h",
            "a6BFWsaCiktWCCXyKGOMtgM93nt2pNhcyCkoippbk1AVNCxkUe/RWVlNjOjmvSBXoEnGqHKqssx9nADjZLH9/ges23yghgq7KsTdQ9uO0z/xwOnILmmn",
            "YrJYS6vHC3gIvLVtCSacT06STQzuBQU51Gcp7KIbpZhMfIDU7+O0Ii48ZVPqHwoI+eDbyBfgYO+LGqrbsPVj46nXcRYDjK65iKp6SexrEro4C5nLxbwS",
            "We5ZGlpBNs0ceyxtgAcLsoQ6KnFAS0rvJxS0hs8X5XNKl8rBimQbBDRmJoZpVjwc7i57LyacY0EiJZgSISejPE6K2eqCcl/YzyDyb6e7aEDZ7rugGCRB",
            "m415IKJx5OeRNswEP4PBnjHJEnckOYnS+X0IDP8Zh9VriaeUwJNnJ7cx8gCm1UwKAe+WzPzdohEqlJ0s/cciiWF/cyupJkce/BiEZTmIbYejfpRXhW7/",
            "h+2+n34BCCxfYw==",
        ].joined()
    )
    static let far = fixture(
        [
            "eJzsVVmyHDEIMzaL2cx1c/xoco20qt7H9PMCQpL1UWbuZO2pIqOhp3vM1DxueejJLXSLZexJxvZbJ/SN+8zoO7c7ngbrK+83Smvl0JUlXqcjr++zWydk",
            "68EPerUv1VYhHVNvjctyy4qy6c1yo5zTtFq68/R78/SyBp1Dly1jLTrjy/aRRWSy5c57njyr/UXqWji6VNBBrjRnlHCXqIlZLc7DqKWOYHGc1UnYXeZ0",
            "4kmcuqSUYhxoUfdqkm1g4U3rLSxnqjS20/sw2iC614a4JdccYTAEGuKY5N771FJS7h3VSn42TYYWGLjZvI7E1tDbRfJkrzOo6+RZ0k8X6To0fp+D7kfk",
            "CUJmnoiArPmdwjFXjfSBvD2HrUBUuduNvhWLOiNwgjLKqyeHmsruWbZuux/aYd18Lc7erjb8YhZa2OF7r/2Ir/p0XEpcR7sNlZ4sOkZtgqrk6chvlNha",
            "wo/kLp+CDkBPlHPXU8VeLJqhHjdrsFDWgsZkJbp4myEk3JopymtE42Bt8BS+mtuyys6Hi9Pk3ItZLpc5qG6fFfmYoWMskbuPz16+dgpOSK2+IHI35AJl",
            "EC/U6nOtlxi0NmzKYBnUhwzVdU0XtHOhJ2kreKDGFtMDb/GSy3Ld9xICPA9TxAnBm8II8h+JllpbGvPjujOC3xK81h3zuuvwA0seDV05s95E4SA9zN+v",
            "QL0elKfyrbWxD3PQXb3BN/7/dv9MGp7UGOy+Cs7ixNE+MJBUYCyEc9fVbGUdL3E4MHSWqtMm0t27zz1lEO+xx78R3BM5FfC/+4Z1EvZvV8lyCBG8dPmK",
            "jRbF7oSixWUYMRoUgcKomve9pQn3NZxasV+CBIfE6Owy4ULnCAqyu/lAriE5l9Y4FIhdo9C3byyAIdcGF0ngBEHjsAc7bN9XnvOPrHxo9dfZe1vvbhb0",
            "24mztKa4wB/SJR4fA1FoEv05vN595zx6seA3ZBQrPu68rahQBpygK02FX7Nvwimnsec4EiSQkZjaWSAHZtIk0Oq2ZzMueVBrQZwlVzdjAiFyBgxDUIhD",
            "7ICOiGsvm4UL1+NGCCphOJ0bho69sgMGa+SgRECtaNTsVCSy4xACCN5HPCtduzqoj9+Td5Xxh5H3Y9sLn4f9F+6ICIeJNZBxSMu7FNUwOkP8wIUEYdNw",
            "NwiBCC3Wg3nSllYtZCG0PgQNIqSQ6DQHQ8JePge53R6Aj6S4sZyaWxWFNFpZHSAbr8U1GEnQniFtMNbxgKEwVkesx28MtxPDTGLIq+cX+Ql9Mt4bgret",
            "4eOTAeH8SMUTIc1uo6sWhuXIWZgPE+NLyMT0VF8PSWZI0TQINvauFYEL/vUNWhHzzMUnJ2vBbajkIQoUcdw48jYexPdz0fo9YK/uQyI8f+CK+UbiMYHu",
            "Zl88i3rpLUspv6p9bxL4xYyRwu/hpXwbnkIYI9bQ7s+4SA1UiGBBLpDDYXqWl5bQ771FCGyo0mAA47eQ94wg0N8zpo+hoxsohA7o5yPIOrxuA75wvv/5",
            "8OHDhw8fPnz48OHDhw8fPnz48OHDhw8fPnz48OHDhw8fPnz48OE/wF8AAAD//+3cMQ0AAADDoG/+JU9HExACAAAAAAAAAAAAABTM9+p79b36Xn2vvlff",
            "a/57PfBTF0A=",
        ].joined()
    )
    static let bomb = fixture(
        [
            "eNrtwTEBAAAAwqD1T20IX6AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD4DAPAAAQ==",
        ].joined()
    )

    static func fixture(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64)!)
    }

    /// The inputs, rebuilt the way the Python script built them.
    static let storedInput: [UInt8] = (0..<1000).map { (index: Int) -> UInt8 in UInt8((index * 7 + index / 13) % 256) }
    static let foxInput = Array(String(repeating: "the quick brown fox jumps over the lazy dog; ", count: 20).utf8)
    static let wordsInput: [UInt8] = {
        let words = ["plaza", "listing", "campus", "bike", "desk", "lamp", "sofa", "textbook", "free", "pickup"]
        var seed = 7
        var chosen: [String] = []
        for _ in 0..<600 {
            seed = (seed * 1_103_515_245 + 12345) % (1 << 31)
            chosen.append(words[(seed >> 16) % words.count])
        }
        return Array(chosen.joined(separator: " ").utf8)
    }()
    static let farInput: [UInt8] = {
        var seed = 1
        var noise: [UInt8] = []
        for _ in 0..<2000 {
            seed = (seed * 1_103_515_245 + 12345) % (1 << 31)
            noise.append(UInt8(seed >> 16 & 0x0F))
        }
        return noise + [UInt8](repeating: UInt8(ascii: "x"), count: 20000) + noise
    }()

    /// BTYPE of the first block: the two bits after BFINAL, right after the two-byte zlib header.
    static func firstBlockType(_ stream: [UInt8]) -> Int {
        Int(stream[2] >> 1 & 3)
    }

    @Test func storedBlocksAreCopiedAsTheyAre() throws {
        #expect(Self.firstBlockType(Self.stored) == 0)
        #expect(try Inflate.zlib(Self.stored, limit: 1 << 20) == Self.storedInput)
    }

    @Test func fixedHuffmanBlocksDecode() throws {
        #expect(Self.firstBlockType(Self.fixed) == 1)
        #expect(try Inflate.zlib(Self.fixed, limit: 1 << 20) == Self.foxInput)
    }

    @Test func dynamicHuffmanBlocksDecode() throws {
        #expect(Self.firstBlockType(Self.dynamic) == 2)
        #expect(try Inflate.zlib(Self.dynamic, limit: 1 << 20) == Self.wordsInput)
    }

    @Test func severalBlocksAndMatchesFarBackDecode() throws {
        // The sync flush ends a block with an empty stored block: LEN 0000, NLEN FFFF.
        #expect(Self.far.indices.contains { Array(Self.far[$0...].prefix(4)) == [0x00, 0x00, 0xFF, 0xFF] })
        #expect(try Inflate.zlib(Self.far, limit: 1 << 20) == Self.farInput)
    }

    @Test func bytesAfterTheChecksumAreIgnored() throws {
        #expect(try Inflate.zlib(Self.fixed + [1, 2, 3], limit: 1 << 20) == Self.foxInput)
    }

    @Test func aWrongAdlerChecksumIsRefused() {
        var checksum = Self.dynamic
        checksum[checksum.count - 1] ^= 0x01
        #expect(throws: Inflate.Failure.checksumMismatch) { try Inflate.zlib(checksum, limit: 1 << 20) }
        // A changed byte inside a stored block changes only the output, so only the checksum can notice it.
        var content = Self.stored
        content[500] ^= 0x40
        #expect(throws: Inflate.Failure.checksumMismatch) { try Inflate.zlib(content, limit: 1 << 20) }
    }

    @Test func everyCutOffStreamIsRefusedAsTruncated() {
        for stream in [Self.stored, Self.fixed, Self.dynamic] {
            for length in 0..<stream.count {
                #expect(throws: Inflate.Failure.truncated, "cut at \(length) of \(stream.count)") {
                    try Inflate.zlib(Array(stream.prefix(length)), limit: 1 << 20)
                }
            }
        }
    }

    @Test func theOutputLimitStopsADecompressionBomb() throws {
        #expect(Self.bomb.count < 1100)
        let output = try Inflate.zlib(Self.bomb, limit: 1 << 20)
        #expect(output.count == 1 << 20 && output.allSatisfy { $0 == 0 })
        #expect(throws: Inflate.Failure.tooLarge) { try Inflate.zlib(Self.bomb, limit: (1 << 20) - 1) }
        #expect(throws: Inflate.Failure.tooLarge) { try Inflate.zlib(Self.bomb, limit: 64 * 1024) }
        #expect(throws: Inflate.Failure.tooLarge) { try Inflate.zlib(Self.stored, limit: 999) }
    }

    @Test func aBadHeaderIsRefused() {
        // 0x78 0x9C is the usual header; change the method, break the check bits, or ask for a preset dictionary.
        for header: [UInt8] in [[0x79, 0x9C], [0x78, 0x9D], [0x78, 0xBB], [0x88, 0x98]] {
            #expect(throws: Inflate.Failure.damaged, "\(header)") {
                try Inflate.zlib(header + Self.fixed.dropFirst(2), limit: 1 << 20)
            }
        }
        #expect(throws: Inflate.Failure.truncated) { try Inflate.zlib([0x78], limit: 1 << 20) }
    }

    @Test func invalidBlocksAreRefused() {
        // BFINAL 1 with BTYPE 3, which does not exist.
        #expect(throws: Inflate.Failure.damaged) { try Inflate.zlib([0x78, 0x01, 0x07, 0, 0, 0, 0], limit: 1 << 20) }
        // A stored block whose NLEN is not LEN's complement.
        #expect(throws: Inflate.Failure.damaged) {
            try Inflate.zlib([0x78, 0x01, 0x01, 0x01, 0x00, 0xFF, 0xFF, 0x41, 0, 0, 0, 0], limit: 1 << 20)
        }
    }

    @Test func aCopyFromBeforeTheStartIsRefused() throws {
        // A fixed-Huffman block written by hand: literal "a", then a copy of length 3 from `distance` back, then the end.
        func stream(distanceCode: Int, checksumOf text: String) -> [UInt8] {
            var writer = BitWriter()
            writer.write(1, bits: 1)  // BFINAL
            writer.write(1, bits: 2)  // BTYPE 01, fixed codes
            writer.writeCode(0x30 + 0x61, length: 8)  // literal "a": 0x30 + byte, 8 bits
            writer.writeCode(1, length: 7)  // symbol 257, length 3
            writer.writeCode(distanceCode, length: 5)  // distance codes 0 and 1 are distances 1 and 2, no extra bits
            writer.writeCode(0, length: 7)  // symbol 256, end of block
            return [0x78, 0x01] + writer.bytes + Self.bigEndianAdler32(Array(text.utf8))
        }
        // The writer itself is right: distance 1 repeats the "a".
        #expect(try Inflate.zlib(stream(distanceCode: 0, checksumOf: "aaaa"), limit: 100) == Array("aaaa".utf8))
        #expect(throws: Inflate.Failure.damaged) {
            try Inflate.zlib(stream(distanceCode: 1, checksumOf: "aaaa"), limit: 100)
        }
    }

    @Test func damagedStreamsNeverTrap() throws {
        var random = SplitMix64(seed: 1951)
        var refused = 0
        var tries = 0
        for stream in [Self.fixed, Self.dynamic, Self.far] {
            for _ in 0..<300 {
                var damaged = stream
                let index = Int(random.next() % UInt64(stream.count))
                damaged[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                tries += 1
                if (try? Inflate.zlib(damaged, limit: 1 << 20)) == nil { refused += 1 }
            }
        }
        // Only a change in the padding bits after the last block can go unnoticed.
        #expect(refused > tries * 95 / 100)
        #expect(try Inflate.zlib(Self.dynamic, limit: 1 << 20) == Self.wordsInput)
    }

    /// Adler-32 as RFC 1950 §9 computes it, written out independently of the decoder's.
    static func bigEndianAdler32(_ bytes: [UInt8]) -> [UInt8] {
        var a = 1
        var b = 0
        for byte in bytes {
            a = (a + Int(byte)) % 65521
            b = (b + a) % 65521
        }
        let value = b << 16 | a
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// DEFLATE's bit order: values least significant bit first, Huffman codes most significant bit first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0

        mutating func write(_ value: Int, bits: Int) {
            for bit in 0..<bits {
                if bitCount % 8 == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> bit) & 1) << (bitCount % 8)
                bitCount += 1
            }
        }

        mutating func writeCode(_ code: Int, length: Int) {
            for bit in stride(from: length - 1, through: 0, by: -1) { write(code >> bit & 1, bits: 1) }
        }
    }

    /// SplitMix64: seeded, so a failure found by a damage test can be replayed.
    struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }
}
