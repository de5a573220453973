import Foundation
import PlazaCore

/// DEFLATE (RFC 1951) in its zlib wrapper (RFC 1950), the compressing half of `Inflate`: print files' streams are
/// `/FlateDecode`, and Foundation has no zlib on Linux (PlazaCore builds for iOS too, so no system library either).
///
/// LZ77 over hash chains with one step of lazy matching, the way zlib's level 6 searches, then each block of up to
/// `blockSymbols` symbols is written the cheapest of three ways: dynamic Huffman codes (lengths limited to 15 bits, 7 for
/// the code-length code), the fixed codes, or stored as it is. The output depends on the input alone: no clock, no
/// randomness, no threads, so a PDF made twice is the same bytes.
public enum Deflate {
    /// How hard the matcher looks; the defaults are zlib's level 6 (its `configuration_table`).
    struct Effort: Sendable {
        /// Hash chain entries tried for one position, and a quarter of it once the previous match is already `goodLength`.
        var maxChain = 128
        var goodLength = 8
        /// A previous match this long is taken without looking for a longer one one byte on.
        var maxLazy = 16
        /// A match this long ends the search.
        var niceLength = 128
    }

    /// The symbols one block holds before it is written: zlib's 16 K at its default memory level.
    static let blockSymbols = 1 << 14

    /// `input` as a zlib stream (header 78 9C, DEFLATE blocks, Adler-32), which `Inflate.zlib` and every zlib read back.
    public static func zlib(_ input: [UInt8]) -> [UInt8] {
        zlib(input, effort: Effort())
    }

    static func zlib(_ input: [UInt8], effort: Effort) -> [UInt8] {
        input.withUnsafeBufferPointer { buffer in
            var writer = BitWriter(capacity: buffer.count / 2 + 64)
            // CMF 0x78: method 8 with a 32 KB window; FLG 0x9C: the default level, no dictionary, CMF·256 + FLG a multiple of 31.
            writer.bytes += [0x78, 0x9C]
            var matcher = Matcher(input: buffer, effort: effort)
            defer { matcher.deallocate() }
            var blocks = BlockWriter(input: buffer)
            defer { blocks.deallocate() }
            matcher.run(into: &blocks, writer: &writer)
            blocks.finish(&writer)
            writer.alignToByte()
            let checksum = buffer.baseAddress.map { Inflate.adler32($0, count: buffer.count) } ?? 1
            writer.bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: checksum >> UInt32($0)) }
            return writer.bytes
        }
    }
}

extension Deflate {
    /// The LZ77 half: finds, for each position, the longest earlier copy within 32 KB (up to 258 bytes), trying the
    /// positions whose next three bytes hash alike, newest first.
    ///
    /// The whole input is in memory, so positions are absolute: `head` holds the newest position per hash and `chain` the
    /// one before each position, indexed modulo 64 K: twice the window, so an entry is never overwritten while a search can
    /// still reach it, and a distance of exactly 32,768 is found too.
    struct Matcher {
        static let hashBits = 15
        static let chainMask = (1 << 16) - 1
        static let window = 32768
        static let minMatch = 3
        static let maxMatch = 258
        /// A three-byte match further back than this costs more than three literals (zlib's TOO_FAR).
        static let tooFar = 4096

        let input: UnsafeBufferPointer<UInt8>
        let effort: Effort
        let head: UnsafeMutablePointer<Int32>
        let chain: UnsafeMutablePointer<Int32>

        init(input: UnsafeBufferPointer<UInt8>, effort: Effort) {
            self.input = input
            self.effort = effort
            head = .allocate(capacity: 1 << Self.hashBits)
            head.initialize(repeating: -1, count: 1 << Self.hashBits)
            // Left uninitialized: an entry is read only for a position already inserted, which wrote it (for a small input
            // most of it is never touched).
            chain = .allocate(capacity: Self.chainMask + 1)
        }

        func deallocate() {
            head.deallocate()
            chain.deallocate()
        }

        /// Multiplicative hashing of the three bytes at `position` (which has two more after it).
        @inline(__always) func hash(_ bytes: UnsafePointer<UInt8>, _ position: Int) -> Int {
            let word = UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
            return Int(truncatingIfNeeded: (word &* 2_654_435_761) >> UInt32(32 - Self.hashBits))
        }

        /// Records `position` as the newest with its hash and returns the one it displaces (-1 for none).
        @inline(__always) func insert(_ bytes: UnsafePointer<UInt8>, _ position: Int) -> Int {
            let slot = hash(bytes, position)
            let previous = head[slot]
            chain[position & Self.chainMask] = previous
            head[slot] = Int32(truncatingIfNeeded: position)
            return Int(previous)
        }

        /// zlib's lazy evaluation: a match found at one position is held back while the next position is searched, and
        /// given up for a literal when the next position has a longer one.
        mutating func run(into blocks: inout BlockWriter, writer: inout BitWriter) {
            guard let bytes = input.baseAddress else { return }
            let count = input.count
            var position = 0
            var pending = false
            var previousLength = Self.minMatch - 1
            var previousDistance = 0
            while position < count {
                var length = Self.minMatch - 1
                var distance = 0
                if count - position >= Self.minMatch {
                    let candidate = insert(bytes, position)
                    if candidate >= 0, position - candidate <= Self.window, previousLength < effort.maxLazy {
                        (length, distance) = longestMatch(bytes, at: position, candidate: candidate, better: previousLength)
                        if length == Self.minMatch, distance > Self.tooFar { length = Self.minMatch - 1 }
                    }
                }
                if previousLength >= Self.minMatch, length <= previousLength {
                    // The match held back from the previous position is the better one: emit it, and hash what it covers.
                    blocks.match(length: previousLength, distance: previousDistance, writer: &writer)
                    let end = position - 1 + previousLength
                    let lastHashable = min(end, count - Self.minMatch + 1)
                    var next = position + 1
                    while next < lastHashable {
                        _ = insert(bytes, next)
                        next += 1
                    }
                    position = end
                    pending = false
                    previousLength = Self.minMatch - 1
                } else {
                    if pending { blocks.literal(bytes[position - 1], writer: &writer) }
                    pending = true
                    previousLength = length
                    previousDistance = distance
                    position += 1
                }
            }
            if pending { blocks.literal(bytes[count - 1], writer: &writer) }
        }

        /// The longest match at `position` longer than `better`, following the chain from `candidate`; (`better`, 0) if
        /// none is.
        @inline(__always) func longestMatch(_ bytes: UnsafePointer<UInt8>, at position: Int, candidate: Int, better: Int) -> (Int, Int) {
            let limit = min(Self.maxMatch, input.count - position)
            var best = better
            var bestDistance = 0
            guard best < limit else { return (best, 0) }
            var chainLeft = better >= effort.goodLength ? effort.maxChain >> 2 : effort.maxChain
            let nice = min(effort.niceLength, limit)
            let here = bytes + position
            let start = UnsafeRawPointer(here).loadUnaligned(as: UInt16.self)
            var end = UnsafeRawPointer(here).loadUnaligned(fromByteOffset: best - 1, as: UInt16.self)
            // The oldest position a match may start at, minus one: a chain entry at or below it is out of the window (or -1).
            let stop = max(-1, position - Self.window - 1)
            var candidate = candidate
            while true {
                let there = UnsafeRawPointer(bytes + candidate)
                // The two bytes that would make this match longer than the best, then the first two: most candidates fail here.
                if there.loadUnaligned(fromByteOffset: best - 1, as: UInt16.self) == end, there.loadUnaligned(as: UInt16.self) == start {
                    let length = Self.commonPrefix(here, bytes + candidate, limit: limit)
                    if length > best {
                        best = length
                        bestDistance = position &- candidate
                        if length >= nice { break }
                        end = UnsafeRawPointer(here).loadUnaligned(fromByteOffset: best - 1, as: UInt16.self)
                    }
                }
                chainLeft &-= 1
                let next = Int(chain[candidate & Self.chainMask])
                // Chains run strictly backwards; a newer entry here would be a slot reused by a position 64 K on.
                guard chainLeft > 0, next > stop, next < candidate else { break }
                candidate = next
            }
            return (best, bestDistance)
        }

        /// How many bytes `a` and `b` agree on, at most `limit`, compared eight at a time.
        @inline(__always) static func commonPrefix(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
            var length = 0
            while limit - length >= 8 {
                let x = UnsafeRawPointer(a + length).loadUnaligned(as: UInt64.self)
                let y = UnsafeRawPointer(b + length).loadUnaligned(as: UInt64.self)
                let difference = UInt64(littleEndian: x ^ y)
                if difference != 0 { return length + difference.trailingZeroBitCount >> 3 }
                length += 8
            }
            while length < limit, a[length] == b[length] { length += 1 }
            return length
        }
    }
}
