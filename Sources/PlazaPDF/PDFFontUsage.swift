import PlazaCore
import PlazaMedia

/// What a document uses of one font: the glyphs to keep in the subset and, for each glyph, the characters it sets (for
/// the ToUnicode CMap that makes the text copyable and searchable; several for a ligature).
struct PDFFontUsage {
    let font: CardFont
    private(set) var glyphs: Set<UInt16> = []
    /// When several characters share a glyph (Liberation Sans sets U+0020 and U+00A0 with one), the fewest characters,
    /// then the smallest code points, win: a rule that does not depend on drawing order.
    private(set) var unicode: [UInt16: [Unicode.Scalar]] = [:]

    init(font: CardFont) {
        self.font = font
    }

    mutating func record(_ line: CardTextLine) {
        for glyph in line.glyphs {
            glyphs.insert(glyph.id)
            guard glyph.id != 0 else { continue }
            if let known = unicode[glyph.id], !Self.precedes(glyph.scalars, known) { continue }
            unicode[glyph.id] = glyph.scalars
        }
    }

    static func precedes(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b) { $0.value < $1.value }
    }

    /// Whether another `CardFont` with the same id is really the same font (cheap fingerprint, not a byte comparison).
    func isSameFont(as other: CardFont) -> Bool {
        let a = font.font
        let b = other.font
        return a.postScriptName == b.postScriptName && a.numberOfGlyphs == b.numberOfGlyphs && a.header == b.header
            && a.horizontalHeader == b.horizontalHeader
    }

    /// Six capital letters from a SHA-256 of the font name and the kept glyph ids: the same glyph set always gets the
    /// same tag, a different one (almost surely) another, as PDF 9.6.4 asks of subset names.
    static func subsetTag(fontName: String, glyphs: Set<UInt16>) -> String {
        var message = Array(fontName.utf8)
        for glyph in glyphs.sorted() { message += [UInt8(glyph >> 8), UInt8(glyph & 0xFF)] }
        let digest = PDFDigest.sha256(message)
        return String(decoding: digest.prefix(6).map { 65 + $0 % 26 }, as: UTF8.self)
    }
}
