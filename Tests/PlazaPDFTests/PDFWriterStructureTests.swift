import Foundation
import PlazaCore
import PlazaMedia
import Testing

@testable import PlazaPDF

/// The file's skeleton read back by hand: cross-reference offsets, page boxes, determinism, font dictionaries, errors.
@Suite struct PDFWriterStructureTests {
    @Test func xrefOffsetsPointAtTheirObjects() throws {
        let bytes = [UInt8](try SampleCard().pdf())
        let tail = String(decoding: bytes.suffix(64), as: UTF8.self)
        let startXref = try #require(
            Int(tail.components(separatedBy: "startxref\n")[1].components(separatedBy: "\n")[0])
        )
        #expect(PDFBytes.find("xref\n", in: bytes, from: startXref) == startXref)
        let header = String(decoding: bytes[startXref..<(startXref + 32)], as: UTF8.self).split(separator: "\n")
        let count = try #require(Int(header[1].split(separator: " ")[1]))
        let table = startXref + "xref\n".utf8.count + header[1].utf8.count + 1
        for number in 1..<count {
            let entry = String(decoding: bytes[(table + number * 20)..<(table + number * 20 + 20)], as: UTF8.self)
            #expect(entry.hasSuffix(" 00000 n\r\n"), "entry \(number): \(entry)")
            let offset = try #require(Int(entry.prefix(10)))
            #expect(PDFBytes.find("\(number) 0 obj\n", in: bytes, from: offset) == offset, "object \(number)")
        }
        #expect(PDFBytes.text(Data(bytes)).contains("/Size \(count) /Root 1 0 R"))
    }

    @Test func pageBoxesAreTheTrimPlusBleed() throws {
        let text = PDFBytes.text(try SampleCard().pdf())
        let k = 72 / 25.4
        let media = "[0 0 \(PDFSyntax.number(154 * k)) \(PDFSyntax.number(111 * k))]"
        #expect(text.contains("/MediaBox \(media) /BleedBox \(media)"))
        #expect(
            text.contains(
                "/TrimBox [\(PDFSyntax.number(3 * k)) \(PDFSyntax.number(3 * k)) \(PDFSyntax.number(151 * k)) \(PDFSyntax.number(108 * k))]"
            )
        )
    }

    @Test func theSameCardGivesTheSameBytes() throws {
        let first = try SampleCard().pdf()
        #expect(try SampleCard().pdf() == first)
        #expect(!PDFBytes.text(first).contains("/CreationDate"))
        let other = PDFBytes.text(try SampleCard(greeting: "Hullo").pdf())
        let id = { (text: String) in text.components(separatedBy: "/ID [")[1].prefix(34) }
        #expect(id(other) != id(PDFBytes.text(first)))
        let dated = try SampleCard().pdf(info: PDFWriter.Info(creationDate: Date(timeIntervalSince1970: 0)))
        #expect(PDFBytes.text(dated).contains("/CreationDate (D:19700101000000Z)"))
    }

    @Test func everyStreamIsCompressed() throws {
        let pdf = try SampleCard().pdf()
        let raw = String(decoding: pdf.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
        // The page, four fonts' programs and ToUnicode CMaps, the RGB swatch: Flate; the photo stays a JPEG.
        #expect(raw.components(separatedBy: "\nstream\n").count - 1 == 11)
        #expect(raw.components(separatedBy: "/Filter /FlateDecode").count - 1 == 10)
        #expect(raw.components(separatedBy: "/Filter /DCTDecode").count - 1 == 1)
        #expect(!raw.contains(" Tj\n") && !raw.contains("beginbfchar"), "no content stream or CMap in plain text")
        #expect(PDFBytes.text(pdf).contains(" Tj\n") && PDFBytes.text(pdf).contains("beginbfchar"), "both inflate back")
        // A font program's /Length1 is its size before compression, as PDF asks.
        let fontFiles = raw.components(separatedBy: "/Length1 ").dropFirst().map { $0.prefix { $0.isNumber } }
        let lengths = raw.components(separatedBy: "/Length1 ").dropFirst().map {
            $0.components(separatedBy: "/Length ")[1].prefix { $0.isNumber }
        }
        #expect(
            fontFiles.count == 4 && zip(fontFiles, lengths).allSatisfy { Int($0)! > Int($1)! },
            "\(fontFiles) \(lengths)"
        )
    }

    @Test func glyphsArePlacedAtTheLayoutsPositions() throws {
        let card = SampleCard()
        let text = PDFBytes.text(try card.pdf())
        let k = 72 / 25.4
        let line = card.layouts[0].layout.lines[0]
        let baseline = PDFSyntax.number((105 + 3 - line.baseline) * k)
        for glyph in line.glyphs {
            #expect(
                text.contains(
                    "1 0 0 1 \(PDFSyntax.number((glyph.x + 3) * k)) \(baseline) Tm \(PDFSyntax.glyphCode(glyph.id)) Tj"
                )
            )
        }
    }

    @Test func fontsAreType0IdentityHSubsetsWithToUnicode() throws {
        let text = PDFBytes.text(try SampleCard().pdf())
        #expect(text.components(separatedBy: "/Subtype /Type0").count == 5)
        #expect(text.components(separatedBy: "/Encoding /Identity-H").count == 5)
        #expect(text.components(separatedBy: "/CIDToGIDMap /Identity").count == 5)
        #expect(text.components(separatedBy: "/FontFile2 ").count == 5)
        #expect(text.range(of: "/BaseFont /[A-Z]{6}\\+EBGaramond12-Regular", options: .regularExpression) != nil)
        #expect(text.contains("/ItalicAngle -15"))
        #expect(text.contains("/Flags 68"))
        // Comfortaa sets "office" with its f_f_i ligature (glyph 397): copied out, it reads as the three letters.
        #expect(text.contains("<018D> <006600660069>"))
    }

    @Test func aFontThatForbidsEmbeddingThrows() throws {
        var bytes = [UInt8](PDFFixtures.fontData("sans"))
        // Set OS/2 fsType (offset 8 in the table) to 0x0002, Restricted License.
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        let record = try #require(
            (0..<tables).map { 12 + $0 * 16 }.first { bytes[$0..<($0 + 4)].elementsEqual("OS/2".utf8) }
        )
        let os2 =
            Int(bytes[record + 8]) << 24 | Int(bytes[record + 9]) << 16 | Int(bytes[record + 10]) << 8
            | Int(bytes[record + 11])
        bytes[os2 + 8] = 0
        bytes[os2 + 9] = 2
        let font = try CardFont(id: "restricted", data: Data(bytes))
        var canvas = PDFCanvas(trimWidth: 100, trimHeight: 50)
        try canvas.draw(
            CardTypesetter.layout(
                CardTextLabel(text: "Hi", font: font, size: 12, box: CardRect(x: 0, y: 0, width: 50, height: 20))
            ),
            font: font
        )
        var writer = PDFWriter()
        writer.add(canvas)
        #expect(throws: PDFError.embeddingForbidden(fontID: "restricted", fsType: 2)) { try writer.render() }
    }

    @Test func misuseThrowsClearly() throws {
        let sans = PDFFixtures.font("sans")
        let layout = CardTypesetter.layout(
            CardTextLabel(text: "Hi", font: sans, size: 12, box: CardRect(x: 0, y: 0, width: 50, height: 20))
        )
        var canvas = PDFCanvas(trimWidth: 100, trimHeight: 50)
        #expect(throws: PDFError.fontMismatch(layoutFontID: "sans", fontID: "serif")) {
            try canvas.draw(layout, font: PDFFixtures.font("serif"))
        }
        try canvas.draw(layout, font: sans)
        canvas.draw(layout.lines[0], font: CardFont(id: "sans", font: PDFFixtures.font("serif").font), size: 12)
        var writer = PDFWriter()
        #expect(throws: PDFError.noPages) { try writer.render() }
        writer.add(canvas)
        #expect(throws: PDFError.conflictingFonts(fontID: "sans")) { try writer.render() }
    }
}
