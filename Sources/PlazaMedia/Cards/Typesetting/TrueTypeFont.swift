import Foundation
import PlazaCore

/// A parsed TrueType (glyf-outline) font: metrics, Unicode mapping, kerning, ligatures and glyph access. Parse it once
/// and share it: it is an immutable value whose storage is shared between copies.
public struct TrueTypeFont: Sendable {
    public let header: TrueTypeHeader
    public let horizontalHeader: TrueTypeHorizontalHeader
    /// From `maxp`.
    public let numberOfGlyphs: Int
    /// Absent in some old Mac fonts; layout never needs it, the PDF writer falls back to `hhea`.
    public let os2: TrueTypeOS2?
    /// From `post`, degrees counter-clockwise (negative for a forward slant).
    public let italicAngle: Double
    public let isFixedPitch: Bool
    /// Name ID 1.
    public let familyName: String?
    /// Name ID 6.
    public let postScriptName: String?

    let bytes: [UInt8]
    let tables: [String: Range<Int>]
    let characterMap: TrueTypeCharacterMap
    let pairKerning: TrueTypePairKerning
    /// The `liga` feature of GSUB (empty when the font has none, or a GSUB that cannot be read).
    let ligatures: TrueTypeGSUBLigatures
    let advances: [UInt16]
    let leftSideBearings: [Int16]
    /// `loca`, as absolute byte ranges' bounds in `bytes`: glyph g is `glyphOffsets[g]..<glyphOffsets[g + 1]`.
    let glyphOffsets: [Int]

    public init(data: Data) throws {
        let bytes = [UInt8](data)
        let tables = try Self.readTableDirectory(bytes)
        func reader(_ tag: String) throws -> TrueTypeReader {
            guard let range = tables[tag] else { throw TrueTypeFontError.missingTable(tag) }
            return try TrueTypeReader(bytes: bytes, table: tag, start: range.lowerBound, length: range.count)
        }
        func optional(_ tag: String) throws -> TrueTypeReader? { tables[tag] == nil ? nil : try reader(tag) }

        self.bytes = bytes
        self.tables = tables
        header = try TrueTypeHeader.parse(reader("head"))
        horizontalHeader = try TrueTypeHorizontalHeader.parse(reader("hhea"))
        numberOfGlyphs = Int(try reader("maxp").u16(4))
        guard numberOfGlyphs > 0 else { throw TrueTypeFontError.malformed(table: "maxp", reason: "no glyphs") }
        os2 = try optional("OS/2").map(TrueTypeOS2.parse)
        let post = try optional("post")
        italicAngle = try post?.fixed(4) ?? 0
        isFixedPitch = try (post?.u32(12) ?? 0) != 0
        let names = try optional("name").map(TrueTypeNames.parse) ?? [:]
        familyName = names[1]
        postScriptName = names[6]
        characterMap = try TrueTypeCharacterMap.parse(reader("cmap"), numberOfGlyphs: numberOfGlyphs)
        let kern = try optional("kern").map(TrueTypeKerning.parse) ?? TrueTypeKerning()
        // A GPOS that cannot be read is ignored (never fatal: the font still sets, from `kern` or unkerned).
        let glyphCount = numberOfGlyphs
        let gpos = try optional("GPOS").flatMap { try? TrueTypeGPOSKerning.parse($0, numberOfGlyphs: glyphCount) }
        if let gpos, !gpos.isEmpty {
            pairKerning = .gpos(gpos)
        } else if !kern.isEmpty {
            pairKerning = .kern(kern)
        } else {
            pairKerning = .unkerned
        }
        // Likewise a GSUB (or a GDEF, whose glyph classes the lookup flags use) that cannot be read is ignored.
        let glyphClasses = try optional("GDEF").flatMap {
            try? OpenTypeLayoutParser.glyphClasses(gdef: $0, numberOfGlyphs: glyphCount)
        }
        ligatures =
            try optional("GSUB").flatMap {
                try? TrueTypeGSUBLigatures.parse($0, numberOfGlyphs: glyphCount, glyphClasses: glyphClasses)
            } ?? TrueTypeGSUBLigatures()
        (advances, leftSideBearings) = try Self.readHorizontalMetrics(
            reader("hmtx"),
            count: horizontalHeader.numberOfHMetrics,
            glyphs: numberOfGlyphs
        )
        glyphOffsets = try Self.readGlyphLocations(
            reader("loca"),
            glyf: reader("glyf"),
            longFormat: header.indexToLocFormat == 1,
            glyphs: numberOfGlyphs
        )
    }

    public var unitsPerEm: Int { header.unitsPerEm }

    /// The file as given (what a browser's `@font-face` loads).
    public var data: Data { Data(bytes) }

    /// The tags of the tables present, sorted.
    public var tableTags: [String] { tables.keys.sorted() }

    /// A table's raw bytes, or nil when the font has no such table.
    public func table(_ tag: String) -> [UInt8]? {
        tables[tag].map { Array(bytes[$0]) }
    }

    /// What the OS/2 licence bits allow (installable when the font has no OS/2 table).
    public var embedding: TrueTypeEmbedding { TrueTypeEmbedding(fsType: os2?.fsType ?? 0) }

    /// The glyph drawn for a character, or 0 (`.notdef`) when the font lacks it.
    public func glyphID(for scalar: Unicode.Scalar) -> UInt16 {
        characterMap.glyph(for: scalar.value)
    }

    /// Whether the font lacks a glyph for a character (it would draw `.notdef`, usually an empty box).
    public func isMissing(_ scalar: Unicode.Scalar) -> Bool {
        glyphID(for: scalar) == 0
    }

    /// Advance width in font units; glyphs past `numberOfHMetrics` share the last advance (monospaced tails), and ids past
    /// the glyph count read as 0.
    public func advanceWidth(of glyph: UInt16) -> Int {
        guard Int(glyph) < numberOfGlyphs else { return 0 }
        return Int(advances[min(Int(glyph), advances.count - 1)])
    }

    /// Left side bearing in font units.
    public func leftSideBearing(of glyph: UInt16) -> Int {
        Int(glyph) < leftSideBearings.count ? Int(leftSideBearings[Int(glyph)]) : 0
    }

    /// Where the pair kerning comes from: GPOS (`kern` feature, preferred), the legacy `kern` table, or nowhere.
    public var kerningSource: TrueTypeKerningSource {
        switch pairKerning {
        case .gpos: return .gpos
        case .kern: return .kern
        case .unkerned: return .unkerned
        }
    }

    /// Whether any pair of glyphs is kerned (from GPOS when the font has a `kern` feature there, else from `kern`).
    public var hasKerning: Bool {
        switch pairKerning {
        case .gpos(let gpos): return gpos.hasAdjustments
        case .kern(let kern): return !kern.isEmpty
        case .unkerned: return false
        }
    }

    /// Kerning entries in the source used: glyph pairs of the `kern` table or of GPOS format 1 subtables, plus class
    /// pairs with a non-zero value in GPOS format 2 subtables (each stands for every glyph pair of the two classes).
    public var kerningPairCount: Int {
        switch pairKerning {
        case .gpos(let gpos): return gpos.count
        case .kern(let kern): return kern.count
        case .unkerned: return 0
        }
    }

    /// The adjustment between two glyphs in font units (negative brings them closer), 0 when the font has none: the sum
    /// over the GPOS `kern` lookups (first matching subtable of each), or the `kern` table's pair.
    public func kerning(between left: UInt16, and right: UInt16) -> Int {
        switch pairKerning {
        case .gpos(let gpos): return gpos.value(left, right)
        case .kern(let kern): return kern.value(left, right)
        case .unkerned: return 0
        }
    }

    /// Whether the font has standard ligatures (`liga`) this layout applies.
    public var hasLigatures: Bool { !ligatures.isEmpty }

    /// The font's standard ligatures applied to glyphs of one paragraph: the glyphs to set and how many input glyphs
    /// each stands for (1 for an untouched or substituted glyph, n for a ligature of n; the counts add up to the input
    /// count, in order). Without ligatures, the glyphs as given, each standing for 1.
    public func ligate(_ glyphs: [UInt16]) -> (glyphs: [UInt16], clusters: [Int]) {
        ligatures.apply(glyphs)
    }

    /// Vertical metrics scaled to a size in points.
    public func metrics(size points: Double) -> ScaledFontMetrics {
        ScaledFontMetrics(font: self, size: points)
    }
}

/// Where a font's pair kerning is read from.
public enum TrueTypeKerningSource: String, Sendable, Hashable {
    /// The GPOS `kern` feature (pair adjustment lookups).
    case gpos
    /// The legacy `kern` table (used only when GPOS has no `kern` feature).
    case kern
    /// The font does not kern.
    case unkerned
}

/// The kerning a font was parsed with.
enum TrueTypePairKerning: Sendable {
    case gpos(TrueTypeGPOSKerning)
    case kern(TrueTypeKerning)
    case unkerned
}
