import PlazaCore

/// A bounds-checked big-endian view of one table of a font file: every read throws `truncated` instead of trapping,
/// so a garbled font fails cleanly.
struct TrueTypeReader {
    let bytes: [UInt8]
    let table: String
    /// Absolute start and end (exclusive) of the window in `bytes`.
    let start: Int
    let end: Int

    init(bytes: [UInt8], table: String, start: Int = 0, length: Int? = nil) throws {
        let length = length ?? (bytes.count - start)
        guard start >= 0, length >= 0, start <= bytes.count, length <= bytes.count - start else {
            throw TrueTypeFontError.truncated(table: table)
        }
        self.bytes = bytes
        self.table = table
        self.start = start
        self.end = start + length
    }

    var length: Int { end - start }

    /// The absolute index of `offset..<offset+count` inside the window, or a `truncated` error.
    func position(_ offset: Int, _ count: Int) throws -> Int {
        guard offset >= 0, count >= 0, offset <= length, count <= length - offset else {
            throw TrueTypeFontError.truncated(table: table)
        }
        return start + offset
    }

    func u8(_ offset: Int) throws -> UInt8 {
        bytes[try position(offset, 1)]
    }

    func u16(_ offset: Int) throws -> UInt16 {
        let p = try position(offset, 2)
        return UInt16(bytes[p]) << 8 | UInt16(bytes[p + 1])
    }

    func i16(_ offset: Int) throws -> Int16 {
        Int16(bitPattern: try u16(offset))
    }

    func u32(_ offset: Int) throws -> UInt32 {
        let p = try position(offset, 4)
        return UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8 | UInt32(bytes[p + 3])
    }

    /// A 16.16 fixed-point number (post.italicAngle).
    func fixed(_ offset: Int) throws -> Double {
        Double(Int32(bitPattern: try u32(offset))) / 65536
    }

    /// A smaller window starting at `offset`, checked to fit inside this one.
    func sub(_ offset: Int, length: Int? = nil) throws -> TrueTypeReader {
        let count = length ?? (self.length - offset)
        let p = try position(offset, count)
        return try TrueTypeReader(bytes: bytes, table: table, start: p, length: count)
    }

    /// The raw bytes of `offset..<offset+count`.
    func slice(_ offset: Int, _ count: Int) throws -> ArraySlice<UInt8> {
        let p = try position(offset, count)
        return bytes[p..<(p + count)]
    }
}
