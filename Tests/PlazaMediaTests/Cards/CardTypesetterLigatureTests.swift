import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Standard ligatures in the one layout: Comfortaa's "ffi" is one glyph on the line, in the preview (its outline) and in
/// the print (its id, copied back as three letters); EB Garamond's f takes the form that meets the next letter.
@Suite struct CardTypesetterLigatureTests {
    /// Comfortaa's `f_f_i` and EB Garamond's `f._i`, as fontTools names them.
    static let comfortaaFFI: UInt16 = 397
    static let garamondFBeforeI: UInt16 = 2992

    static func line(_ text: String, _ font: CardFont, width: Double = 150) -> CardTextLine {
        layout(text, font, width: width).lines[0]
    }

    static func layout(_ text: String, _ font: CardFont, width: Double = 150) -> CardTextLayout {
        CardTypesetter.layout(
            CardTextLabel(text: text, font: font, size: 20, box: CardRect(x: 0, y: 0, width: width, height: 200))
        )
    }

    @Test func comfortaaSetsOfficeWithItsFFILigature() {
        let font = CardTestFonts.display.font
        let line = Self.line("office", CardTestFonts.display)
        let glyph = { (scalar: Unicode.Scalar) in font.glyphID(for: scalar) }
        #expect(line.glyphs.map(\.id) == [glyph("o"), Self.comfortaaFFI, glyph("c"), glyph("e")])
        #expect(line.glyphs.map(\.text) == ["o", "ffi", "c", "e"])
        #expect(line.glyphs.map(\.isSubstituted) == [false, true, false, false])
        #expect(line.text == "office")
        // The line is as wide as the ligature's own advance makes it, and the next letter starts there.
        let ligature = line.glyphs[1]
        #expect(abs(line.glyphs[2].x - (ligature.x + ligature.advance)) < 0.5)
        #expect(ligature.advance < 3 * font.advanceWidth(of: glyph("f")).millimetres(at: 20, in: font))
    }

    @Test func aLineNeverBreaksInsideALigature() {
        // A box narrower than the word: it is split between glyphs, so "ffi" stays whole on one line.
        let layout = Self.layout("affixaffixaffix", CardTestFonts.display, width: 14)
        #expect(layout.lines.count > 1)
        #expect(layout.lines.map(\.text).joined() == "affixaffixaffix")
        for line in layout.lines {
            #expect(line.glyphs.map(\.text).joined() == line.text)
        }
        let ligatures = layout.lines.flatMap(\.glyphs).filter { $0.id == Self.comfortaaFFI }
        #expect(ligatures.count == 3 && ligatures.allSatisfy { $0.text == "ffi" })
    }

    @Test func ebGaramondsFTakesTheFormThatMeetsAnI() {
        let line = Self.line("fit", CardTestFonts.serif)
        #expect(line.glyphs.count == 3)
        #expect(line.glyphs[0].id == Self.garamondFBeforeI && line.glyphs[0].text == "f")
        #expect(line.glyphs[0].isSubstituted)
        #expect(line.text == "fit")
    }

    @Test(arguments: [CardTestFonts.sans, CardTestFonts.script])
    func fontsWithoutLigaturesSetEachCharacterAsItself(_ font: CardFont) {
        let line = Self.line("office affix", font)
        #expect(line.glyphs.map(\.id) == "office affix".unicodeScalars.map { font.font.glyphID(for: $0) })
        #expect(line.glyphs.filter(\.isSubstituted).isEmpty)
    }

    @Test func thePreviewDrawsALigatureAsItsOutline() throws {
        let font = CardTestFonts.display.font
        let layout = Self.layout("office", CardTestFonts.display)
        let svg = CardPreviewSVG.text("names", layout, colour: "#112233", font: font)
        #expect(svg.hasPrefix("<g data-label=\"names\" fill=\"#112233\">"))
        #expect(svg.contains(">oce</tspan>"), "the letters around it stay text: \(svg)")
        let d = try font.outline(of: Self.comfortaaFFI).svgPathData(number: CardPreviewSVG.number)
        let ligature = layout.lines[0].glyphs[1]
        let scale = CardPreviewSVG.factor(CardUnits.millimetres(fromPoints: 20) / Double(font.unitsPerEm))
        #expect(scale.hasPrefix("0.0070555"), "20 pt is 7.0556 mm, over 1,000 units an em")
        let origin = "\(CardPreviewSVG.number(ligature.x)) \(CardPreviewSVG.number(layout.lines[0].baseline))"
        #expect(svg.contains("<path transform=\"matrix(\(scale) 0 0 -\(scale) \(origin))\" d=\"\(d)\"/>"))
        // Without the font there is no outline to draw: the letters are set as text.
        #expect(CardPreviewSVG.text("names", layout, colour: "#112233").contains(">office</tspan>"))
    }
}

extension Int {
    fileprivate func millimetres(at size: Double, in font: TrueTypeFont) -> Double {
        Double(self) * size / Double(font.unitsPerEm) * 25.4 / 72
    }
}
