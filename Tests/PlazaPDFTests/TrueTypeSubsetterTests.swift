import Foundation
import PlazaCore
import PlazaMedia
import Testing

@testable import PlazaPDF

/// The embedded font programs: valid sfnt files that keep glyph ids, keep only the used outlines, and checksum.
@Suite struct TrueTypeSubsetterTests {
    @Test(arguments: ["serif", "sans", "script", "display"])
    func subsetKeepsIdsAndOnlyTheUsedOutlines(_ id: String) throws {
        let font = PDFFixtures.font(id).font
        let used = "Zoé!".unicodeScalars.map { font.glyphID(for: $0) }
        let kept = try font.glyphClosure(used)
        // A PDF font program needs no cmap (glyphs are addressed by id) but our reader does: add the original one back to
        // read the subset's loca, glyf and hmtx through the same checks as any font.
        let tables = TrueTypeSubsetter.tables(font, keeping: kept)
        #expect(tables.map(\.tag) == TrueTypeSubsetter.keptTables)
        let subset = try TrueTypeFont(
            data: Data(TrueTypeSubsetter.assemble(tables + [("cmap", try #require(font.table("cmap")))]))
        )
        #expect(subset.numberOfGlyphs == font.numberOfGlyphs)
        #expect(subset.header.indexToLocFormat == 1)
        for glyph in 0..<UInt16(font.numberOfGlyphs) {
            if kept.contains(glyph) {
                #expect(subset.glyphData(glyph).elementsEqual(font.glyphData(glyph)), "glyph \(glyph)")
                #expect(subset.advanceWidth(of: glyph) == font.advanceWidth(of: glyph))
            } else {
                #expect(subset.glyphData(glyph).isEmpty, "glyph \(glyph)")
            }
        }
        // é is a composite in all four fonts: its components are kept too.
        #expect(try font.componentGlyphIDs(of: font.glyphID(for: "é")).allSatisfy { kept.contains($0) })
    }

    @Test func checksumsAreRecomputed() throws {
        let font = PDFFixtures.font("sans").font
        let bytes = TrueTypeSubsetter.subset(font, keeping: try font.glyphClosure([36, 57]))
        // The whole file sums to the magic 0xB1B0AFBA once head.checkSumAdjustment is set.
        #expect(TrueTypeSubsetter.checksum(bytes) == 0xB1B0_AFBA)
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        for record in (0..<tables).map({ 12 + $0 * 16 }) {
            let field = { (at: Int) in (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
            var table = Array(bytes[field(record + 8)..<(field(record + 8) + field(record + 12))])
            if bytes[record..<(record + 4)].elementsEqual("head".utf8) {
                table.replaceSubrange(8..<12, with: [0, 0, 0, 0])
            }
            #expect(TrueTypeSubsetter.checksum(table) == UInt32(field(record + 4)))
        }
    }

    @Test func theSubsetTagDependsOnlyOnTheGlyphSet() {
        let tag = PDFFontUsage.subsetTag(fontName: "LiberationSans", glyphs: [0, 36, 57])
        #expect(tag.count == 6 && tag.allSatisfy { $0.isUppercase })
        #expect(PDFFontUsage.subsetTag(fontName: "LiberationSans", glyphs: [57, 36, 0]) == tag)
        #expect(PDFFontUsage.subsetTag(fontName: "LiberationSans", glyphs: [0, 36]) != tag)
    }

    @Test func widthsGroupConsecutiveGlyphs() {
        let font = PDFFixtures.font("sans").font
        // fontTools: A (36) and B (37) are 1366 units, V (57) 1366, of 2048 per em.
        #expect(PDFFontEmbedder.widths(font, [36, 37, 57]) == "[36 [666.992 666.992] 57 [666.992]]")
        #expect(PDFFontEmbedder.widths(font, []) == "[]")
    }
}
