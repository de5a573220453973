import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Line breaking, hard breaks, long words, alignment and vertical placement.
@Suite struct CardTypesetterTests {
    static let size = 10.0
    static let box = CardRect(x: 10, y: 20, width: 100, height: 80)

    /// Millimetres per font unit for a font at `size`.
    static func scale(_ font: CardFont, _ size: Double = size) -> Double {
        size / Double(font.font.unitsPerEm) * 25.4 / 72
    }

    /// Width of a string set in a font, summed here independently of the engine (advances plus kern pairs).
    static func width(_ text: String, _ font: CardFont, _ size: Double = size) -> Double {
        let glyphs = text.unicodeScalars.map { font.font.glyphID(for: $0) }
        var units = glyphs.reduce(0) { $0 + font.font.advanceWidth(of: $1) }
        for (left, right) in zip(glyphs, glyphs.dropFirst()) { units += font.font.kerning(between: left, and: right) }
        return Double(units) * scale(font, size)
    }

    static func layout(
        _ text: String,
        font: CardFont = CardTestFonts.serif,
        width: Double? = nil,
        alignment: CardTextAlignment = .left
    )
        -> CardTextLayout
    {
        var box = box
        if let width { box.width = width }
        return CardTypesetter.layout(CardTextLabel(text: text, font: font, size: size, box: box, alignment: alignment))
    }

    @Test func breaksGreedilyAtSpaces() {
        let text = "The quick brown fox jumps over the lazy dog and keeps on running"
        let font = CardTestFonts.serif
        let layout = Self.layout(text, width: Self.width("The quick brown", font))
        #expect(layout.lines.first?.text == "The quick brown")
        #expect(layout.lines.map(\.text).joined(separator: " ") == text)
        for (line, next) in zip(layout.lines, layout.lines.dropFirst()) {
            #expect(line.width <= Self.width("The quick brown", font) + 1e-9)
            // Greedy: the next line's first word would not have fitted.
            let nextWord = next.text.split(separator: " ")[0]
            #expect(Self.width(line.text + " " + nextWord, font) > Self.width("The quick brown", font))
        }
        #expect(!layout.overflow)
    }

    @Test func spacesCollapseAtSoftBreaksOnly() {
        let font = CardTestFonts.serif
        let layout = Self.layout("one  two   three", width: Self.width("one  two  ", font))
        #expect(layout.lines.map(\.text) == ["one  two", "three"])
        #expect(Self.layout("  indented   ").lines.map(\.text) == ["  indented"])
        #expect(Self.layout("   ").lines.map(\.text) == [""])
    }

    @Test func hardBreaksStartNewLines() {
        let layout = Self.layout("one\ntwo\r\nthree\n\nfive\rsix")
        #expect(layout.lines.map(\.text) == ["one", "two", "three", "", "five", "six"])
        let pitch = Self.size * 1.2 * 25.4 / 72
        for (index, line) in layout.lines.enumerated() {
            #expect(abs(line.baseline - (layout.lines[0].baseline + Double(index) * pitch)) < 1e-9)
        }
    }

    @Test func aWordWiderThanTheBoxBreaksBetweenCharacters() {
        let font = CardTestFonts.serif
        let limit = Self.width("Superca", font)
        let layout = Self.layout("to Supercalifragilistic", width: limit)
        #expect(layout.lines[0].text == "to")
        let pieces = layout.lines.dropFirst().map(\.text)
        #expect(pieces.joined() == "Supercalifragilistic")
        #expect(pieces.count > 2)
        for (piece, next) in zip(pieces, pieces.dropFirst()) {
            #expect(Self.width(piece, font) <= limit + 1e-9)
            #expect(Self.width(piece + String(next.prefix(1)), font) > limit)
        }
        #expect(!layout.overflow)
    }

    @Test func alignmentPlacesLinesInTheBox() {
        let font = CardTestFonts.serif
        let width = Self.width("Hello", font)
        let left = Self.layout("Hello", alignment: .left).lines[0]
        let center = Self.layout("Hello", alignment: .center).lines[0]
        let right = Self.layout("Hello", alignment: .right).lines[0]
        #expect(abs(left.width - width) < 1e-9)
        #expect(left.x == 10)
        #expect(abs(center.x - (10 + (100 - width) / 2)) < 1e-9)
        #expect(abs(right.x - (110 - width)) < 1e-9)
        for line in [left, center, right] {
            #expect(line.glyphs[0].x == line.x)
            let advances = line.glyphs.dropLast().map(\.advance)
            for (index, advance) in advances.enumerated() {
                #expect(abs(line.glyphs[index + 1].x - line.glyphs[index].x - advance) < 1e-9)
            }
        }
    }

    @Test func firstBaselineIsBoxTopPlusHheaAscender() {
        // EB Garamond: hhea ascender 710 of 1000 units per em.
        let layout = Self.layout("Hello\nworld")
        #expect(abs(layout.lines[0].baseline - (20 + 0.710 * Self.size * 25.4 / 72)) < 1e-12)
        #expect(abs(layout.lines[1].baseline - layout.lines[0].baseline - Self.size * 1.2 * 25.4 / 72) < 1e-12)
        #expect(abs(layout.descent - 0.290 * Self.size * 25.4 / 72) < 1e-12)
        let custom = CardTypesetter.layout(
            CardTextLabel(text: "a\nb", font: CardTestFonts.serif, size: 10, box: Self.box, lineHeight: 18)
        )
        #expect(abs(custom.lines[1].baseline - custom.lines[0].baseline - 18 * 25.4 / 72) < 1e-12)
    }

    @Test func decomposedAccentsSetThePrecomposedGlyph() {
        let line = Self.layout("Zoe\u{301}").lines[0]
        #expect(line.text == "Zoé")
        #expect(line.glyphs.map(\.id).last == CardTestFonts.serif.font.glyphID(for: "é"))
    }

    @Test func emptyTextIsOneEmptyLine() {
        let layout = Self.layout("")
        #expect(layout.lines.count == 1)
        #expect(layout.lines[0].glyphs.isEmpty && layout.lines[0].width == 0)
        #expect(!layout.overflow)
    }
}
