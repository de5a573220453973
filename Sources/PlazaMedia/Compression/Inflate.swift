import Foundation
import PlazaCore

/// DEFLATE (RFC 1951) in its zlib wrapper (RFC 1950), as PNG stores pixels, with no zlib: PlazaCore builds for iOS too.
///
/// Uploads are hostile until proven otherwise: every read is bounds-checked, damaged or cut-off streams throw, and the
/// output stops at a caller-given limit, because a few kilobytes of DEFLATE can claim gigabytes (a decompression bomb).
public enum Inflate {
    /// Why a zlib stream was refused.
    public enum Failure: Error, Sendable, Hashable {
        /// Not a zlib stream this decoder reads: a bad header, a preset dictionary, an invalid block or code, a distance
        /// reaching before the start of the output.
        case damaged
        /// The stream ends before its last block or its Adler-32 checksum does.
        case truncated
        /// The output's Adler-32 differs from the one the stream carries.
        case checksumMismatch
        /// The output would be longer than the caller's limit.
        case tooLarge
    }

    /// The bytes a zlib stream holds; throws `Inflate.Failure` when damaged, cut short, or longer than `limit` bytes.
    /// Bytes after the checksum are ignored, as zlib does.
    public static func zlib(_ data: [UInt8], limit: Int) throws -> [UInt8] {
        try zlib(data, limit: limit, expectedCount: nil)
    }

    /// As above; `expectedCount` (PNG knows its exact size from the header) sizes the output once instead of doubling it.
    static func zlib(_ data: [UInt8], limit: Int, expectedCount: Int?) throws -> [UInt8] {
        guard data.count >= 2 else { throw Failure.truncated }
        return try data.withUnsafeBufferPointer { input in
            let initial = min(max(limit, 0), expectedCount ?? max(1 << 16, input.count * 4))
            var inflater = StreamDecoder(input: input, capacity: max(1, initial), limit: limit)
            defer { inflater.output.deallocate() }
            try inflater.run()
            return Array(UnsafeBufferPointer(start: inflater.output, count: inflater.count))
        }
    }

    /// Adler-32 (RFC 1950): two running sums modulo 65521, reduced every 5552 bytes, the most that cannot overflow 32 bits.
    static func adler32(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var index = 0
        while index < count {
            let end = min(count, index + 5552)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}

extension Inflate {
    /// One zlib stream being decoded: the input, a 64-bit bit buffer read least significant bit first, and the output.
    struct StreamDecoder {
        let input: UnsafeBufferPointer<UInt8>
        /// The next input byte to load into `bits`; past the end, zeros are loaded instead (see `phantom`).
        var position = 0
        var bits: UInt64 = 0
        var bitCount = 0
        /// Zero bytes loaded past the input's end, so the hot loop need not check the end on every read: a stream that uses
        /// any of them was cut short, which `checkTruncation` finds once per symbol.
        var phantom = 0
        var output: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int
        let limit: Int

        init(input: UnsafeBufferPointer<UInt8>, capacity: Int, limit: Int) {
            self.input = input
            self.capacity = capacity
            self.limit = limit
            output = .allocate(capacity: capacity)
        }

        mutating func run() throws {
            // CMF and FLG: method 8 (deflate) with a window of at most 32 KB, a multiple of 31 together, no preset dictionary.
            let method = Int(input[0])
            let flags = Int(input[1])
            guard method & 0x0F == 8, method >> 4 <= 7, (method << 8 | flags) % 31 == 0, flags & 0x20 == 0 else {
                throw Inflate.Failure.damaged
            }
            position = 2
            var last = false
            while !last {
                refill()
                last = take(1) == 1
                let type = take(2)
                try checkTruncation()
                switch type {
                case 0: try copyStoredBlock()
                case 1: try decodeBlock(literals: Inflate.HuffmanTable.fixedLiterals, distances: Inflate.HuffmanTable.fixedDistances)
                case 2:
                    let tables = try readDynamicTables()
                    try decodeBlock(literals: tables.literals, distances: tables.distances)
                default: throw Inflate.Failure.damaged
                }
            }
            alignToByte()
            guard input.count - position >= 4 else { throw Inflate.Failure.truncated }
            var expected: UInt32 = 0
            for offset in 0..<4 { expected = expected << 8 | UInt32(input[position + offset]) }
            guard Inflate.adler32(output, count: count) == expected else { throw Inflate.Failure.checksumMismatch }
        }

        // MARK: Bits

        /// Tops the bit buffer up to at least 56 bits: eight bytes at once while they are there, then byte by byte.
        @inline(__always) mutating func refill() {
            if input.count - position >= 8 {
                let word = UnsafeRawPointer(input.baseAddress! + position).loadUnaligned(as: UInt64.self)
                bits |= UInt64(littleEndian: word) << UInt64(bitCount)
                position += (63 - bitCount) >> 3
                bitCount |= 56
            } else {
                while bitCount <= 56 {
                    if position < input.count { bits |= UInt64(input[position]) << UInt64(bitCount) } else { phantom += 1 }
                    position += 1
                    bitCount += 8
                }
            }
        }

        /// The next `count` bits (at most 32), consumed; the caller has refilled.
        @inline(__always) mutating func take(_ count: Int) -> Int {
            let value = Int(truncatingIfNeeded: bits & ((1 << UInt64(count)) - 1))
            bits >>= UInt64(count)
            bitCount -= count
            return value
        }

        @inline(__always) func checkTruncation() throws {
            if phantom > 0, bitCount < phantom * 8 { throw Inflate.Failure.truncated }
        }

        /// Drops the bits up to the next byte boundary and gives back the whole bytes still buffered, so the input can be
        /// read bytewise from `position` (stored blocks, the checksum).
        mutating func alignToByte() {
            bits = 0
            position -= bitCount / 8
            bitCount = 0
            phantom = 0
        }

        // MARK: Blocks

        /// A stored block: LEN, its ones' complement NLEN, then LEN bytes as they are.
        mutating func copyStoredBlock() throws {
            alignToByte()
            guard input.count - position >= 4 else { throw Inflate.Failure.truncated }
            let length = Int(input[position]) | Int(input[position + 1]) << 8
            let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
            guard length ^ complement == 0xFFFF else { throw Inflate.Failure.damaged }
            position += 4
            guard input.count - position >= length else { throw Inflate.Failure.truncated }
            try reserve(length)
            (output + count).update(from: input.baseAddress! + position, count: length)
            count += length
            position += length
        }

        /// A Huffman-coded block: literals and (length, distance) copies until the end-of-block symbol.
        mutating func decodeBlock(literals: Inflate.HuffmanTable, distances: Inflate.HuffmanTable) throws {
            while true {
                try checkTruncation()
                // One symbol with its extra bits, then a distance with its own: at most 15 + 5 + 15 + 13 = 48 bits.
                if bitCount < 48 { refill() }
                let entry = try decode(literals)
                switch entry & Inflate.HuffmanTable.kindMask {
                case Inflate.HuffmanTable.literal:
                    try reserve(1)
                    output[count] = UInt8(truncatingIfNeeded: entry >> 16)
                    count += 1
                case Inflate.HuffmanTable.endOfBlock:
                    try checkTruncation()
                    return
                case Inflate.HuffmanTable.base:
                    let length = Int(entry >> 16) + take(Int(entry >> 4 & 15))
                    let code = try decode(distances)
                    guard code & Inflate.HuffmanTable.kindMask == Inflate.HuffmanTable.base else { throw Inflate.Failure.damaged }
                    let distance = Int(code >> 16) + take(Int(code >> 4 & 15))
                    try checkTruncation()
                    guard distance <= count else { throw Inflate.Failure.damaged }
                    try reserve(length)
                    copyMatch(length: length, distance: distance)
                default:
                    throw Inflate.Failure.damaged
                }
            }
        }

        /// Repeats `length` bytes from `distance` back. The source may overlap what is being written (distance 1 repeats one
        /// byte), so long copies go in chunks no longer than the gap, a gap that doubles as the repeated run grows.
        @inline(__always) mutating func copyMatch(length: Int, distance: Int) {
            let destination = output + count
            if length <= 16 || distance < 4 && length <= 32 {
                for index in 0..<length { destination[index] = destination[index - distance] }
            } else {
                var copied = 0
                while copied < length {
                    let gap = (distance + copied) / distance * distance
                    let chunk = min(length - copied, gap)
                    (destination + copied).update(from: destination + copied - gap, count: chunk)
                    copied += chunk
                }
            }
            count += length
        }

        @inline(__always) mutating func reserve(_ extra: Int) throws {
            if extra > capacity - count { try grow(to: count + extra) }
        }

        mutating func grow(to needed: Int) throws {
            guard needed <= limit else { throw Inflate.Failure.tooLarge }
            let larger = min(limit, max(needed, capacity * 2))
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            buffer.update(from: output, count: count)
            output.deallocate()
            output = buffer
            capacity = larger
        }
    }
}
