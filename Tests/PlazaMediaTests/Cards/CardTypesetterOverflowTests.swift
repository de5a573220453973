import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Overflow, kerning, missing glyphs, every shipped font, determinism and speed.
@Suite struct CardTypesetterOverflowTests {
    static func label(
        _ text: String,
        font: CardFont = CardTestFonts.serif,
        box: CardRect,
        maxLines: Int = 0
    ) -> CardTextLabel {
        CardTextLabel(text: text, font: font, size: 10, box: box, maxLines: maxLines)
    }

    @Test func moreLinesThanMaxLinesOverflowAndAreStillLaidOut() {
        let layout = CardTypesetter.layout(
            Self.label("one\ntwo\nthree", box: CardRect(x: 0, y: 0, width: 100, height: 100), maxLines: 2)
        )
        #expect(layout.overflow)
        #expect(layout.lines.map(\.text) == ["one", "two", "three"])
        #expect(layout.lines.map(\.isOverflowing) == [false, false, true])
    }

    @Test func linesBelowTheBoxOverflow() {
        // Exactly two lines tall: ascender + one line pitch + descender.
        let mm = 10 * 25.4 / 72
        let height = 0.710 * mm + 1.2 * mm + 0.290 * mm
        let fitting = CardTypesetter.layout(
            Self.label("one\ntwo", box: CardRect(x: 0, y: 5, width: 100, height: height))
        )
        #expect(!fitting.overflow)
        #expect(abs(fitting.height - height) < 1e-9)
        let over = CardTypesetter.layout(
            Self.label("one\ntwo\nthree", box: CardRect(x: 0, y: 5, width: 100, height: height))
        )
        #expect(over.overflow)
        #expect(over.lines.map(\.isOverflowing) == [false, false, true])
        #expect(over.height > height)
    }

    @Test func aGlyphWiderThanTheBoxOverflows() {
        let layout = CardTypesetter.layout(Self.label("WW", box: CardRect(x: 0, y: 0, width: 1, height: 100)))
        #expect(layout.lines.map(\.text) == ["W", "W"])
        #expect(layout.overflow)
        #expect(layout.lines.allSatisfy { $0.isOverflowing })
        let zero = CardTypesetter.layout(Self.label("ab c", box: CardRect(x: 0, y: 0, width: 0, height: 100)))
        #expect(zero.lines.map(\.text) == ["a", "b", "c"])
    }

    @Test func kerningFromTheKernTableMovesGlyphs() {
        let sans = CardTestFonts.sans
        let line = CardTypesetter.layout(
            Self.label("AVATAR", font: sans, box: CardRect(x: 0, y: 0, width: 200, height: 50))
        ).lines[0]
        let scale = 10.0 / 2048 * 25.4 / 72
        let a = sans.font.glyphID(for: "A")
        let v = sans.font.glyphID(for: "V")
        // fontTools: A 1366 units wide, A/V kerned -152.
        #expect(abs(line.glyphs[1].x - line.glyphs[0].x - Double(1366 - 152) * scale) < 1e-12)
        #expect(sans.font.kerning(between: a, and: v) == -152)
        let unkerned = line.glyphs.reduce(0) { $0 + $1.advance }
        #expect(line.width < unkerned - 1e-6)
        // EB Garamond kerns only in GPOS: A/V -160 of 1000 units (fontTools, see TrueTypeGPOSKerningTests).
        let serif = CardTypesetter.layout(Self.label("AV", box: CardRect(x: 0, y: 0, width: 200, height: 50))).lines[0]
        #expect(
            abs(serif.glyphs[1].x - serif.glyphs[0].x - serif.glyphs[0].advance + 160 * 10.0 / 1000 * 25.4 / 72) < 1e-12
        )
    }

    @Test func missingCharactersAreReportedOnceInOrder() {
        let layout = CardTypesetter.layout(
            Self.label("€5 中 and €6 ✓", font: CardTestFonts.script, box: CardRect(x: 0, y: 0, width: 200, height: 50))
        )
        #expect(layout.missingScalars == ["€", "中", "✓"])
        #expect(layout.lines[0].glyphs[0].id == 0)
        #expect(
            CardTypesetter.layout(Self.label("€5", box: CardRect(x: 0, y: 0, width: 200, height: 50))).missingScalars
                .isEmpty
        )
    }

    @Test(arguments: CardTestFonts.ids)
    func everyShippedFontSetsASampleSentence(_ id: String) {
        let text = "Happy birthday, dear Zoë!\nWith love from all of us — 100% “true”."
        let label = CardTextLabel(
            text: text,
            font: CardTestFonts.font(id),
            size: 14,
            box: CardRect(x: 10, y: 10, width: 128, height: 60),
            alignment: .center
        )
        let layout = CardTypesetter.layout(label)
        #expect(layout.missingScalars.isEmpty)
        #expect(!layout.overflow)
        #expect(layout.lines.count >= 2)
        #expect(layout.lines.allSatisfy { $0.glyphs.allSatisfy { $0.id != 0 } && $0.width > 0 })
        #expect(
            layout.lines.map(\.text).joined(separator: " ").replacingOccurrences(of: "\n", with: " ")
                == text.replacingOccurrences(of: "\n", with: " ")
        )
    }

    @Test func theSameLabelGivesTheSameBits() {
        let label = CardTextLabel(
            text: "Congratulations on your new home!\nLove, the Smiths",
            font: CardTestFonts.sans,
            size: 13.5,
            box: CardRect(x: 7.25, y: 12.5, width: 61.3, height: 40),
            alignment: .right,
            maxLines: 3
        )
        let first = CardTypesetter.layout(label)
        let second = CardTypesetter.layout(label)
        #expect(first == second)
        let bits = { (layout: CardTextLayout) in
            layout.lines.flatMap { $0.glyphs.map(\.x.bitPattern) + [$0.baseline.bitPattern] }
        }
        #expect(bits(first) == bits(second))
    }
}
