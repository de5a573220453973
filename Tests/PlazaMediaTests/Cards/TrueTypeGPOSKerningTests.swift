import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// GPOS pair kerning, checked against values read independently from the font files.
///
/// The expected numbers come from fontTools 4.60 (`python3 -m pip install fonttools`) with this script, which resolves a
/// pair the way the OpenType spec defines it for the `kern` feature (script `latn`, else `DFLT`, default LangSys;
/// lookups of type 2, or 9 wrapping 2, in LookupList order; the first subtable that matches in each lookup; the first
/// glyph's XAdvance; the lookups' values added). `python3 gpos_pairs.py serif.ttf AV To Ty` prints the glyph ids,
/// advances and kerning of each pair:
///
/// ```python
/// import sys
/// from fontTools.ttLib import TTFont
///
/// def kern_lookups(font):
///     t = font["GPOS"].table
///     scripts = {r.ScriptTag: r.Script for r in t.ScriptList.ScriptRecord}
///     script = scripts.get("latn") or scripts.get("DFLT")
///     if script is None or script.DefaultLangSys is None: return []
///     ls = script.DefaultLangSys
///     idx = list(ls.FeatureIndex) + ([ls.ReqFeatureIndex] if ls.ReqFeatureIndex != 0xFFFF else [])
///     lookups = set()
///     for i in idx:
///         rec = t.FeatureList.FeatureRecord[i]
///         if rec.FeatureTag == "kern": lookups.update(rec.Feature.LookupListIndex)
///     return [t.LookupList.Lookup[i] for i in sorted(lookups)]
///
/// def subtables(lookup):
///     for st in lookup.SubTable:
///         if lookup.LookupType == 9:
///             if st.ExtensionLookupType == 2: yield st.ExtSubTable
///         elif lookup.LookupType == 2:
///             yield st
///
/// def xadv(v): return getattr(v, "XAdvance", 0) or 0 if v is not None else 0
///
/// def pair_value(font, left, right):
///     total = 0
///     for lookup in kern_lookups(font):
///         for st in subtables(lookup):
///             cov = st.Coverage.glyphs
///             if left not in cov: continue
///             if st.Format == 1:
///                 ps = st.PairSet[cov.index(left)]
///                 hit = [r for r in ps.PairValueRecord if r.SecondGlyph == right]
///                 if not hit: continue
///                 total += xadv(hit[0].Value1); break
///             else:
///                 c1 = st.ClassDef1.classDefs.get(left, 0); c2 = st.ClassDef2.classDefs.get(right, 0)
///                 if c1 >= st.Class1Count or c2 >= st.Class2Count: continue
///                 total += xadv(st.Class1Record[c1].Class2Record[c2].Value1); break
///     return total
///
/// font = TTFont(sys.argv[1])
/// cmap = font.getBestCmap()
/// for pair in sys.argv[2:]:
///     l, r = cmap[ord(pair[0])], cmap[ord(pair[1])]
///     print(pair, font.getGlyphID(l), font.getGlyphID(r), font["hmtx"][l][0], font["hmtx"][r][0], pair_value(font, l, r))
/// ```
///
/// HarfBuzz agrees on every pair below (uharfbuzz 0.5x: shape the two characters with `liga`, `clig` and `calt` off and
/// take the first glyph's x_advance minus its advance width).
@Suite struct TrueTypeGPOSKerningTests {
    struct Pair: Sendable, CustomStringConvertible {
        var font: String
        var pair: String
        /// Glyph ids of the two characters (cmap), a check that the pair is the one fontTools resolved.
        var glyphs: [UInt16]
        /// Advance widths (hmtx) of the two glyphs, in font units.
        var advances: [Int]
        /// The font's own GPOS `kern` value for the pair, in font units.
        var kerning: Int
        var description: String { "\(font) \(pair)" }
    }

    static let pairs: [Pair] = [
        // EB Garamond: lookup 0 (one format 1 and three format 2 subtables); "fi" kerns apart in this font.
        Pair(font: "serif", pair: "AV", glyphs: [36, 57], advances: [692, 672], kerning: -160),
        Pair(font: "serif", pair: "To", glyphs: [55, 82], advances: [670, 495], kerning: -105),
        Pair(font: "serif", pair: "fi", glyphs: [73, 76], advances: [318, 245], kerning: 70),
        // Comfortaa: lookups 0 and 1 (format 1 and format 2 subtables).
        Pair(font: "display", pair: "AV", glyphs: [4, 178], advances: [703, 716], kerning: -56),
        Pair(font: "display", pair: "To", glyphs: [152, 302], advances: [655, 677], kerning: -144),
        Pair(font: "display", pair: "P.", glyphs: [135, 690], advances: [612, 216], kerning: -128),
        // Liberation Sans: lookup 17 (one format 1 subtable, the same 908 pairs as its `kern` table).
        Pair(font: "sans", pair: "AV", glyphs: [36, 57], advances: [1366, 1366], kerning: -152),
        Pair(font: "sans", pair: "To", glyphs: [55, 82], advances: [1251, 1139], kerning: -227),
        Pair(font: "sans", pair: "Yo", glyphs: [60, 82], advances: [1366, 1139], kerning: -188),
        // Kristi truly does not kern: its GPOS has no features at all (and it has no `kern` table).
        Pair(font: "script", pair: "AV", glyphs: [3, 53], advances: [631, 542], kerning: 0),
        Pair(font: "script", pair: "To", glyphs: [46, 141], advances: [576, 400], kerning: 0),
        Pair(font: "script", pair: "Wa", glyphs: [54, 59], advances: [1035, 707], kerning: 0),
    ]

    @Test(arguments: pairs)
    func theLayoutKernsAsTheFontSays(_ expected: Pair) {
        let card = CardTestFonts.font(expected.font)
        let font = card.font
        let scalars = Array(expected.pair.unicodeScalars)
        let glyphs = scalars.map { font.glyphID(for: $0) }
        #expect(glyphs == expected.glyphs)
        #expect(glyphs.map { font.advanceWidth(of: $0) } == expected.advances)
        #expect(font.kerning(between: glyphs[0], and: glyphs[1]) == expected.kerning)

        // As the layout applies it: the pair set together, minus the two advances, in font units. Where the font sets
        // the pair with other glyphs (EB Garamond's f before an i), the layout kerns those, by the same GPOS.
        let paragraph = CardMeasuredParagraph(scalars: scalars, font: font)
        let set = paragraph.glyphs
        #expect(set.count == 2)
        let advances = set == glyphs ? expected.advances : set.map { font.advanceWidth(of: $0) }
        let kerning = set == glyphs ? expected.kerning : font.kerning(between: set[0], and: set[1])
        #expect(paragraph.width(0..<2) - advances.reduce(0, +) == kerning)
        #expect(paragraph.offset(of: 1, lineStart: 0) == advances[0] + kerning)

        // And in millimetres, where the SVG preview and the PDF put the second glyph.
        let size = 20.0
        let layout = CardTypesetter.layout(
            CardTextLabel(
                text: expected.pair,
                font: card,
                size: size,
                box: CardRect(x: 0, y: 0, width: 100, height: 30)
            )
        )
        let line = layout.lines[0]
        let millimetresPerUnit = size / Double(font.unitsPerEm) * CardUnits.millimetresPerPoint
        #expect(
            abs(
                line.glyphs[1].x - line.glyphs[0].x - Double(advances[0] + kerning)
                    * millimetresPerUnit
            ) < 1e-9
        )
    }

    @Test func whereEachFontsKerningComesFrom() {
        #expect(CardTestFonts.serif.font.kerningSource == .gpos)
        #expect(CardTestFonts.display.font.kerningSource == .gpos)
        // Liberation Sans has both; GPOS is preferred (it holds the same pairs).
        #expect(CardTestFonts.sans.font.kerningSource == .gpos)
        #expect(CardTestFonts.script.font.kerningSource == .unkerned)
        #expect(!CardTestFonts.script.font.hasKerning && CardTestFonts.script.font.kerningPairCount == 0)
        for font in [CardTestFonts.serif, CardTestFonts.display, CardTestFonts.sans] {
            #expect(font.font.hasKerning && font.font.kerningPairCount > 0, "\(font.id)")
        }
    }

    @Test func avavInTheSerifIsNarrowerThanItsGlyphs() {
        let label = CardTextLabel(
            text: "AVAV",
            font: CardTestFonts.serif,
            size: 24,
            box: CardRect(x: 0, y: 0, width: 150, height: 30)
        )
        let line = CardTypesetter.layout(label).lines[0]
        let glyphs = line.glyphs.reduce(0) { $0 + $1.advance }
        // A/V -160, V/A -150, A/V -160: 470 units of 1000 at 24 pt.
        let tighter = 470.0 / 1000 * CardUnits.millimetres(fromPoints: 24)
        #expect(abs(glyphs - line.width - tighter) < 1e-9)
        #expect(line.width < glyphs - 3)
    }

    @Test func aMissingGlyphOrAnUnlistedPairIsNotKerned() {
        let serif = CardTestFonts.serif.font
        #expect(serif.kerning(between: serif.glyphID(for: "H"), and: serif.glyphID(for: "H")) == 0)
        #expect(serif.kerning(between: 0, and: serif.glyphID(for: "V")) == 0)
        #expect(serif.kerning(between: 0xFFFF, and: 0xFFFF) == 0)
    }

    /// A GPOS made by hand for what the bundled fonts do not use: an extension lookup (type 9), ValueRecords with more
    /// fields than XAdvance in both valueFormat1 and valueFormat2, Coverage format 2, ClassDef formats 1 and 2, the first
    /// matching subtable winning and two lookups adding up. fontTools reads the same bytes (`newTable("GPOS").decompile`)
    /// and the script above gives the same values for every pair checked here.
    @Test func aHandMadeTableReadsAsFontToolsReadsIt() throws {
        let kerning = try TrueTypeGPOSKerning.parse(
            TrueTypeReader(bytes: GPOSBytes.handMade, table: "GPOS"),
            numberOfGlyphs: 10
        )
        #expect(kerning.lookups.count == 2)
        #expect(kerning.value(3, 5) == -30 + -7)  // lookup 1: its format 1 subtable lists the pair first
        #expect(kerning.value(3, 6) == -40 + 200)  // lookup 1: not in format 1, class 0 × class 2 in format 2
        #expect(kerning.value(4, 5) == -50 + -2)
        #expect(kerning.value(4, 6) == -3)  // pair set of glyph 4 lacks 6
        #expect(kerning.value(7, 9) == -1)  // glyph 9 in no class: class 0
        #expect(kerning.value(8, 5) == 0)  // glyph 8 covered nowhere
        #expect(kerning.value(3, 3) == 0)
        #expect(kerning.hasAdjustments)
    }
}

/// Big-endian GPOS tables for the tests. Offsets in the comments are from the table's start.
enum GPOSBytes {
    static func words(_ values: [Int]) -> [UInt8] {
        values.flatMap { value in
            let word = UInt16(truncatingIfNeeded: value)
            return [UInt8(word >> 8), UInt8(word & 0xFF)]
        }
    }

    static let handMade: [UInt8] = words([
        // Header: version 1.0, ScriptList @10, FeatureList @30, LookupList @46.
        1, 0, 10, 30, 46,
        // ScriptList @10: 'latn' → Script @18 (default LangSys @22: no required feature, feature 0).
        1, 0x6C61, 0x746E, 8, 4, 0, 0, 0xFFFF, 1, 0,
        // FeatureList @30: 'kern' → Feature @38: lookups 0 and 1.
        1, 0x6B65, 0x726E, 8, 0, 2, 0, 1,
        // LookupList @46: lookup 0 @52, lookup 1 @132.
        2, 6, 86,
        // Lookup 0 @52: type 9, one subtable → Extension @60: format 1, type 2, 32-bit offset 8 → PairPos @68.
        9, 0, 1, 8, 1, 2, 0, 8,
        // PairPos format 1 @68: Coverage @+54, valueFormat1 0x0007 (XPlacement, YPlacement, XAdvance: 6 bytes),
        // valueFormat2 0x0011 (XPlacement, XPlaDevice: 4 bytes), pair sets @+14 and @+40.
        1, 54, 0x0007, 0x0011, 2, 14, 40,
        // Pair set 0 (glyph 3): 5 → XAdvance -30, 6 → -40 (the other fields are noise to be skipped).
        2, 5, 11, 12, -30, 13, 0, 6, 0, 0, -40, 99, 0,
        // Pair set 1 (glyph 4): 5 → -50.
        1, 5, 1, 2, -50, 3, 0,
        // Coverage format 2: glyphs 3...4 from coverage index 0.
        2, 1, 3, 4, 0,
        // Lookup 1 @132: type 2, subtables @+10 (format 1) and @+34 (format 2).
        2, 0, 2, 10, 34,
        // PairPos format 1: Coverage @+18, valueFormat1 XAdvance, one pair set @+12: 3/5 → -7; Coverage format 1 [3].
        1, 18, 4, 0, 1, 12, 1, 5, -7, 1, 1, 3,
        // PairPos format 2: Coverage @+40, valueFormat1 XAdvance, valueFormat2 YPlacement, ClassDef1 @+50,
        // ClassDef2 @+66, 2 × 3 classes; the matrix of (XAdvance, YPlacement) records.
        2, 40, 4, 2, 50, 66, 2, 3,
        0, 9, 100, 9, 200, 9,
        -1, 9, -2, 9, -3, 9,
        // Coverage format 1 [3, 4, 7]; ClassDef1 format 2: 4 → 1, 7 → 1; ClassDef2 format 1 from 5: [1, 2].
        1, 3, 3, 4, 7,
        2, 2, 4, 4, 1, 7, 7, 1,
        1, 5, 2, 1, 2,
    ])
}
