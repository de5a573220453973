import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Glyph outlines, which the preview draws for ligatures and contextual forms (glyphs no character maps to). The
/// expected boxes and contour counts are fontTools 4.60's, for the bundled fonts:
///
///     from fontTools.pens.boundsPen import ControlBoundsPen
///     from fontTools.pens.recordingPen import DecomposingRecordingPen
///     t = TTFont("display.ttf"); gs = t.getGlyphSet(); p = ControlBoundsPen(gs); gs["f_f_i"].draw(p); p.bounds
///     rp = DecomposingRecordingPen(gs); gs["f_f_i"].draw(rp); sum(op == "closePath" for op, _ in rp.value)
@Suite struct TrueTypeOutlineTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        let font: String
        let name: String
        let glyph: UInt16
        let bounds: [Double]
        let contours: Int
        var testDescription: String { "\(font) \(name)" }
    }

    static let glyphs: [Expected] = [
        Expected(font: "display", name: "f_f_i (composite)", glyph: 397, bounds: [22, 0, 931, 781], contours: 4),
        Expected(font: "display", name: "fi", glyph: 399, bounds: [22, 0, 516, 784], contours: 2),
        Expected(font: "display", name: "o", glyph: 302, bounds: [61, -5, 617, 552], contours: 2),
        Expected(font: "serif", name: "f._i", glyph: 2992, bounds: [24, -3, 462, 706], contours: 1),
        Expected(font: "serif", name: "i (composite)", glyph: 76, bounds: [24, -3, 226, 616], contours: 2),
        Expected(font: "serif", name: "eacute (composite)", glyph: 171, bounds: [30, -14, 361, 649], contours: 3),
        Expected(font: "sans", name: "eacute (composite)", glyph: 171, bounds: [87, -20, 1048, 1508], contours: 3),
        Expected(font: "sans", name: "Aring (composite)", glyph: 135, bounds: [4, 0, 1362, 1787], contours: 4),
    ]

    @Test(arguments: glyphs)
    func anOutlineHasTheFontsContoursAndBox(_ expected: Expected) throws {
        let font = CardTestFonts.font(expected.font).font
        let outline = try font.outline(of: expected.glyph)
        #expect(outline.contours.count == expected.contours)
        let points = outline.contours.flatMap { $0 }
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let box = [xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0]
        #expect(box == expected.bounds)
        let d = outline.svgPathData(number: CardPreviewSVG.number)
        #expect(d.filter { $0 == "M" }.count == expected.contours && d.filter { $0 == "Z" }.count == expected.contours)
        #expect(d.allSatisfy { "MLQZ-. 0123456789".contains($0) })
    }

    @Test func aSpaceOrAnIdPastTheFontHasNoOutline() throws {
        let font = CardTestFonts.sans.font
        #expect(try font.outline(of: font.glyphID(for: " ")).contours.isEmpty)
        #expect(try font.outline(of: UInt16(font.numberOfGlyphs)).contours.isEmpty)
    }

    @Test func impliedPointsAndClosingAreTrueTypes() {
        let on = { (x: Double, y: Double) in TrueTypeOutline.Point(x: x, y: y, onCurve: true) }
        let off = { (x: Double, y: Double) in TrueTypeOutline.Point(x: x, y: y, onCurve: false) }
        let number = CardPreviewSVG.number
        // Two controls in a row imply the on-curve point between them; the last control curves back to the start.
        let square = TrueTypeOutline(contours: [[on(0, 0), off(0, 10), off(10, 10), on(10, 0), off(5, -5)]])
        #expect(square.svgPathData(number: number) == "M0 0Q0 10 5 10Q10 10 10 0Q5 -5 0 0Z")
        // No on-curve point at all: it starts halfway between the last point and the first.
        let round = TrueTypeOutline(contours: [[off(0, 0), off(0, 10), off(10, 10), off(10, 0)]])
        #expect(round.svgPathData(number: number) == "M5 0Q0 0 0 5Q0 10 5 10Q10 10 10 5Q10 0 5 0Z")
    }

    @Test func aCompositeThatContainsItselfThrowsInsteadOfLooping() throws {
        var bytes = [UInt8](CardTestFonts.data("sans"))
        let record = CardTestFonts.sans.font.glyphData(171)
        // The first component's glyph id sits after the header (10 bytes) and its flags (2).
        bytes[record.startIndex + 12] = 0
        bytes[record.startIndex + 13] = 171
        let font = try TrueTypeFont(data: Data(bytes))
        #expect(throws: TrueTypeFontError.self) { try font.outline(of: 171) }
    }
}
