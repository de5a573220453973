import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// The expected numbers were read once, independently, with fontTools 4 (`pip install fonttools`), e.g.
/// `f = TTFont("serif.ttf"); f["head"].unitsPerEm, f["hhea"].ascent, f["OS/2"].sCapHeight, f["post"].italicAngle,
/// f["name"].getDebugName(6), f.getGlyphID(f.getBestCmap()[ord("H")]), f["hmtx"]["H"], f["kern"].kernTables[0]`.
@Suite struct TrueTypeFontTests {
    struct Expected: Sendable, CustomStringConvertible {
        var id: String
        var unitsPerEm: Int
        var bbox: [Int]
        var locFormat: Int
        var macStyle: UInt16
        var hhea: [Int]  // ascender, descender, lineGap, numberOfHMetrics
        var glyphs: Int
        var typo: [Int]  // ascender, descender, lineGap
        var win: [Int]  // ascent, descent
        var capHeight: Int?
        var xHeight: Int?
        var weight: Int
        var italicAngle: Double
        var family: String
        var postScript: String
        var letterH: [Int]  // glyph id, advance, left side bearing
        var space: [Int]  // glyph id, advance
        var eAcute: [Int]  // glyph id, then its composite components
        var description: String { id }
    }

    static let expected: [Expected] = [
        Expected(
            id: "serif",
            unitsPerEm: 1000,
            bbox: [-290, -324, 2500, 978],
            locFormat: 1,
            macStyle: 0,
            hhea: [710, -290, 0, 3083],
            glyphs: 3090,
            typo: [710, -290, 0],
            win: [910, 324],
            capHeight: 650,
            xHeight: 400,
            weight: 400,
            italicAngle: 0,
            family: "EB Garamond 12",
            postScript: "EBGaramond12-Regular",
            letterH: [43, 810, 37],
            space: [3, 200],
            eAcute: [171, 668, 72]
        ),
        Expected(
            id: "sans",
            unitsPerEm: 2048,
            bbox: [-1114, -621, 2666, 2007],
            locFormat: 1,
            macStyle: 0,
            hhea: [1854, -434, 67, 2620],
            glyphs: 2620,
            typo: [1491, -431, 307],
            win: [1854, 434],
            capHeight: 1409,
            xHeight: 1082,
            weight: 400,
            italicAngle: 0,
            family: "Liberation Sans",
            postScript: "LiberationSans",
            letterH: [43, 1479, 168],
            space: [3, 569],
            eAcute: [171, 72, 118]
        ),
        Expected(
            id: "script",
            unitsPerEm: 2048,
            bbox: [-427, -1035, 1307, 1613],
            locFormat: 0,
            macStyle: 2,
            hhea: [1836, -724, 0, 212],
            glyphs: 212,
            typo: [1272, -776, 512],
            win: [1836, 724],
            capHeight: nil,
            xHeight: nil,
            weight: 400,
            italicAngle: -15,
            family: "Kristi",
            postScript: "Kristi",
            letterH: [23, 691, -44],
            space: [183, 480],
            eAcute: [100, 62, 98]
        ),
        Expected(
            id: "display",
            unitsPerEm: 1000,
            bbox: [-850, -262, 1271, 1264],
            locFormat: 0,
            macStyle: 0,
            hhea: [881, -234, 0, 851],
            glyphs: 859,
            typo: [881, -234, 0],
            win: [1285, 276],
            capHeight: 781,
            xHeight: 547,
            weight: 400,
            italicAngle: 0,
            family: "Comfortaa",
            postScript: "Comfortaa-Regular",
            letterH: [69, 844, 100],
            space: [3, 293],
            eAcute: [237, 236, 809]
        ),
    ]

    @Test(arguments: expected)
    func shippedFontMetricsMatchFontTools(_ expected: Expected) throws {
        let font = CardTestFonts.font(expected.id).font
        #expect(font.unitsPerEm == expected.unitsPerEm)
        #expect([font.header.xMin, font.header.yMin, font.header.xMax, font.header.yMax] == expected.bbox)
        #expect(font.header.indexToLocFormat == expected.locFormat)
        #expect(font.header.macStyle == expected.macStyle)
        let hhea = font.horizontalHeader
        #expect([hhea.ascender, hhea.descender, hhea.lineGap, hhea.numberOfHMetrics] == expected.hhea)
        #expect(font.numberOfGlyphs == expected.glyphs)
        let os2 = try #require(font.os2)
        #expect([os2.typoAscender, os2.typoDescender, os2.typoLineGap] == expected.typo)
        #expect([os2.winAscent, os2.winDescent] == expected.win)
        #expect(os2.capHeight == expected.capHeight)
        #expect(os2.xHeight == expected.xHeight)
        #expect(os2.weightClass == expected.weight)
        #expect(font.italicAngle == expected.italicAngle)
        #expect(!font.isFixedPitch)
        #expect(font.familyName == expected.family)
        #expect(font.postScriptName == expected.postScript)
        let letterH = font.glyphID(for: "H")
        #expect([Int(letterH), font.advanceWidth(of: letterH), font.leftSideBearing(of: letterH)] == expected.letterH)
        #expect([Int(font.glyphID(for: " ")), font.advanceWidth(of: font.glyphID(for: " "))] == expected.space)
        let eAcute = font.glyphID(for: "é")
        #expect([Int(eAcute)] + (try font.componentGlyphIDs(of: eAcute)).map(Int.init) == expected.eAcute)
    }

    @Test(arguments: CardTestFonts.ids)
    func shippedFontsAllowEmbedding(_ id: String) {
        let embedding = CardTestFonts.font(id).font.embedding
        #expect(embedding.fsType == 0)
        #expect(embedding.allowsOutlineEmbedding && !embedding.forbidsSubsetting)
    }

    @Test func onlyLiberationSansHasAKernTable() {
        // fontTools: kern format 0, 907 pairs; A/V -152, T/o -227. Its GPOS `kern` feature (preferred, so what is read)
        // lists the same 908 pairs in one format 1 subtable. EB Garamond and Comfortaa kern in GPOS only (see
        // TrueTypeGPOSKerningTests); Kristi does not kern at all.
        let sans = CardTestFonts.sans.font
        #expect(sans.table("kern") != nil)
        #expect(sans.kerningPairCount == 908)
        #expect(sans.kerning(between: sans.glyphID(for: "A"), and: sans.glyphID(for: "V")) == -152)
        #expect(sans.kerning(between: sans.glyphID(for: "T"), and: sans.glyphID(for: "o")) == -227)
        #expect(sans.kerning(between: sans.glyphID(for: "H"), and: sans.glyphID(for: "H")) == 0)
        for font in [CardTestFonts.serif, CardTestFonts.script, CardTestFonts.display] {
            #expect(font.font.table("kern") == nil)
        }
        #expect(CardTestFonts.serif.font.hasKerning && CardTestFonts.display.font.hasKerning)
        #expect(!CardTestFonts.script.font.hasKerning)
    }

    @Test func missingCharactersMapToNotdef() {
        let script = CardTestFonts.script.font
        #expect(script.glyphID(for: "€") == 0 && script.isMissing("€"))
        #expect(CardTestFonts.serif.font.glyphID(for: "€") == 1651)
        for font in CardTestFonts.all {
            #expect(font.font.isMissing("中"))
            #expect(font.font.isMissing("😀"))
        }
    }

    @Test func glyphsPastTheLastHorizontalMetricShareItsAdvance() {
        // EB Garamond has 3090 glyphs but 3083 hmtx records: the last 7 take record 3082's advance (1000 in fontTools).
        let serif = CardTestFonts.serif.font
        #expect(serif.advanceWidth(of: 3089) == 1000)
        #expect(serif.advanceWidth(of: 3090) == 0)
    }

    @Test func closureKeepsNotdefAndCompositeComponents() throws {
        let sans = CardTestFonts.sans.font
        #expect(try sans.glyphClosure([sans.glyphID(for: "é")]) == [0, 171, 72, 118])
        #expect(try sans.glyphClosure([]) == [0])
    }

    @Test func scaledMetricsAreInPoints() {
        let metrics = CardTestFonts.serif.font.metrics(size: 20)
        #expect(abs(metrics.ascender - 14.2) < 1e-12)
        #expect(abs(metrics.descender + 5.8) < 1e-12)
        #expect(abs((metrics.capHeight ?? 0) - 13) < 1e-12)
        #expect(CardTestFonts.script.font.metrics(size: 20).capHeight == nil)
    }

    @Test func unitsConvertBetweenMillimetresAndPoints() {
        #expect(CardUnits.points(fromMillimetres: 25.4) == 72)
        #expect(abs(CardUnits.millimetres(fromPoints: 72) - 25.4) < 1e-12)
    }
}
