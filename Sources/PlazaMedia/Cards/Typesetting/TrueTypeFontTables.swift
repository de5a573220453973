import PlazaCore

/// The `head` table values layout and subsetting need (font units).
public struct TrueTypeHeader: Sendable, Hashable {
    public var unitsPerEm: Int
    public var xMin: Int
    public var yMin: Int
    public var xMax: Int
    public var yMax: Int
    /// 0: `loca` holds 16-bit offsets / 2; 1: 32-bit offsets.
    public var indexToLocFormat: Int
    /// Bit 0 bold, bit 1 italic.
    public var macStyle: UInt16

    static func parse(_ r: TrueTypeReader) throws -> TrueTypeHeader {
        guard try r.u32(12) == 0x5F0F_3CF5 else {
            throw TrueTypeFontError.malformed(table: "head", reason: "bad magic number")
        }
        let unitsPerEm = Int(try r.u16(18))
        // The spec allows 16...16384; anything else would divide layout by nonsense (or by zero).
        guard (16...16384).contains(unitsPerEm) else {
            throw TrueTypeFontError.malformed(table: "head", reason: "unitsPerEm \(unitsPerEm) outside 16...16384")
        }
        let locFormat = Int(try r.i16(50))
        guard locFormat == 0 || locFormat == 1 else {
            throw TrueTypeFontError.malformed(table: "head", reason: "indexToLocFormat \(locFormat)")
        }
        return TrueTypeHeader(
            unitsPerEm: unitsPerEm,
            xMin: Int(try r.i16(36)),
            yMin: Int(try r.i16(38)),
            xMax: Int(try r.i16(40)),
            yMax: Int(try r.i16(42)),
            indexToLocFormat: locFormat,
            macStyle: try r.u16(44)
        )
    }
}

/// The `hhea` table: the vertical metrics Apple platforms and browsers on macOS use for line boxes (font units).
public struct TrueTypeHorizontalHeader: Sendable, Hashable {
    public var ascender: Int
    /// Negative: below the baseline.
    public var descender: Int
    public var lineGap: Int
    public var numberOfHMetrics: Int

    static func parse(_ r: TrueTypeReader) throws -> TrueTypeHorizontalHeader {
        TrueTypeHorizontalHeader(
            ascender: Int(try r.i16(4)),
            descender: Int(try r.i16(6)),
            lineGap: Int(try r.i16(8)),
            numberOfHMetrics: Int(try r.u16(34))
        )
    }
}

/// The `OS/2` table's metrics, weight and embedding licence bits (font units).
public struct TrueTypeOS2: Sendable, Hashable {
    public var version: Int
    public var weightClass: Int
    /// Embedding licensing rights; see `embedding`.
    public var fsType: UInt16
    public var typoAscender: Int
    public var typoDescender: Int
    public var typoLineGap: Int
    public var winAscent: Int
    public var winDescent: Int
    /// Only in version 2 and later.
    public var xHeight: Int?
    /// Only in version 2 and later.
    public var capHeight: Int?

    /// What the font's licence bits allow a PDF writer to do.
    public var embedding: TrueTypeEmbedding { TrueTypeEmbedding(fsType: fsType) }

    static func parse(_ r: TrueTypeReader) throws -> TrueTypeOS2 {
        let version = Int(try r.u16(0))
        return TrueTypeOS2(
            version: version,
            weightClass: Int(try r.u16(4)),
            fsType: try r.u16(8),
            typoAscender: Int(try r.i16(68)),
            typoDescender: Int(try r.i16(70)),
            typoLineGap: Int(try r.i16(72)),
            winAscent: Int(try r.u16(74)),
            winDescent: Int(try r.u16(76)),
            xHeight: version >= 2 ? Int(try r.i16(86)) : nil,
            capHeight: version >= 2 ? Int(try r.i16(88)) : nil
        )
    }
}

/// The OS/2 `fsType` embedding rights, decoded.
public struct TrueTypeEmbedding: Sendable, Hashable {
    public var fsType: UInt16

    /// Bit 1 alone (Restricted License) forbids embedding; bits 2 (print & preview) or 3 (editable) lift it.
    public var isRestricted: Bool { fsType & 0x000E == 0x0002 }
    /// Bit 9: only bitmaps may be embedded, which a vector PDF cannot honour.
    public var isBitmapOnly: Bool { fsType & 0x0200 != 0 }
    /// Bit 8: the whole font must be embedded, never a subset.
    public var forbidsSubsetting: Bool { fsType & 0x0100 != 0 }
    public var allowsOutlineEmbedding: Bool { !isRestricted && !isBitmapOnly }
}
