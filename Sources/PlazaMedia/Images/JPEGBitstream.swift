import Foundation
import PlazaCore

// The pieces of a JPEG's entropy-coded data the decoder reads with: Huffman tables, the bit reader, frame and scan
// headers.

// MARK: - Decoding

/// A Huffman table as the decoder uses it: a lookup by the next 9 bits for the short codes that carry nearly every
/// symbol, and the canonical code ranges by length for the rest.
final class HuffmanTable {
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
struct BitReader {
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
struct FrameComponent {
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
enum ScanMode {
    /// Sequential Huffman: the DC coefficient kept, every AC coefficient decoded only to step past it.
    case sequential
    /// A progressive first DC scan: the DC coefficient shifted left by the point transform.
    case firstDC(shift: Int)
    /// A progressive DC refinement: one more bit, at position `bit`.
    case refineDC(bit: Int)
}

/// A component's part in one scan.
struct ScanPart {
    let component: Int
    let base: Int
    let blocksPerLine: Int
    /// Blocks per MCU across and down: the sampling factors in an interleaved scan, 1 × 1 in a scan of one component.
    let horizontal: Int
    let vertical: Int
    let dcTable: HuffmanTable?
    let acTable: HuffmanTable?
}
