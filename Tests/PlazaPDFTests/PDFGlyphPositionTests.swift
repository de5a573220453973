import Foundation
import PlazaCore
import PlazaMedia
import PlazaTestSupport
import Testing

@testable import PlazaPDF

/// "What you approved is what gets printed", checked from outside: poppler's word boxes in the PDF start and end where
/// the layout engine put the glyphs.
@Suite struct PDFGlyphPositionTests {
    struct Word: Equatable {
        var text: String
        var xMin: Double
        var xMax: Double
    }

    @Test func popplersWordBoxesMatchTheLayout() throws {
        let card = SampleCard()
        let file = try PDFFixtures.temporaryFile(try card.pdf())
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run("pdftotext", ["-bbox", file.path, "-"])
        #expect(output.status == 0)
        let pattern = try NSRegularExpression(
            pattern: "<word xMin=\"([0-9.]+)\" yMin=\"[0-9.]+\" xMax=\"([0-9.]+)\" yMax=\"[0-9.]+\">([^<]*)</word>"
        )
        let html = output.stdout
        let found = pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
            let field = { (index: Int) in String(html[Range(match.range(at: index), in: html)!]) }
            return Word(text: field(3), xMin: Double(field(1))!, xMax: Double(field(2))!)
        }
        let expected = card.layouts.flatMap { layout, _ in layout.lines.flatMap(Self.words) }
        #expect(found.map(\.text) == expected.map(\.text))
        for (pdf, layout) in zip(found, expected) {
            #expect(
                abs(pdf.xMin - layout.xMin) < 0.005,
                "\(pdf.text) starts at \(pdf.xMin) pt, layout says \(layout.xMin)"
            )
            #expect(
                abs(pdf.xMax - layout.xMax) < 0.005,
                "\(pdf.text) ends at \(pdf.xMax) pt, layout says \(layout.xMax)"
            )
        }
    }

    /// The layout's words with their extent in page points (bleed 3 mm): first glyph's origin to last glyph's advance.
    static func words(_ line: CardTextLine) -> [Word] {
        let k = 72 / 25.4
        var words: [Word] = []
        var current: [CardGlyph] = []
        for glyph in line.glyphs + [CardGlyph(id: 0, scalars: [" "], x: 0, advance: 0)] {
            if glyph.scalars == [" "] {
                if let first = current.first, let last = current.last {
                    let text = String(String.UnicodeScalarView(current.flatMap(\.scalars)))
                    words.append(Word(text: text, xMin: (first.x + 3) * k, xMax: (last.x + last.advance + 3) * k))
                }
                current = []
            } else {
                current.append(glyph)
            }
        }
        return words
    }
}
