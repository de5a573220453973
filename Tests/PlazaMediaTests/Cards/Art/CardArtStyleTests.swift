import PlazaCore
import Testing

@testable import PlazaMedia

/// Defaults, attribute vs `style` precedence, inheritance, opacity folding, visibility and colours.
@Suite struct CardArtStyleTests {
    typealias S = CardArtSamples
    static let square = "d=\"M0 0H10V10H0Z\""

    static func fill(_ attributes: String) throws -> CardArtPaint? {
        try S.shape("<path \(square) \(attributes)/>").fill
    }

    @Test func svgDefaults() throws {
        let shape = try S.shape("<path \(Self.square)/>")
        #expect(shape.fill == CardArtPaint(red: 0, green: 0, blue: 0, opacity: 1))
        #expect(shape.stroke == nil && shape.strokeWidth == 0 && shape.fillRule == .nonzero)
    }

    @Test func styleDeclarationsWinOverAttributes() throws {
        #expect(try Self.fill("fill=\"red\" style=\"fill:blue\"") == CardArtPaint(red: 0, green: 0, blue: 255))
        #expect(
            try Self.fill("style=\"fill: lime !important; fill-opacity:.5\" fill=\"red\"")
                == CardArtPaint(red: 0, green: 255, blue: 0, opacity: 0.5)
        )
        // The child's attribute still beats the parent's style: inheritance comes first, then the element's own values.
        let shape = try S.shape("<g style=\"fill:red\"><path \(Self.square) fill=\"navy\"/></g>")
        #expect(shape.fill == CardArtPaint(red: 0, green: 0, blue: 128))
    }

    @Test func fillAndStrokeAreInherited() throws {
        let shapes = try S.art(
            "<g fill=\"red\" stroke=\"#00f\" stroke-width=\"3\" fill-rule=\"evenodd\" fill-opacity=\"0.5\"><path \(Self.square)/>"
                + "<path \(Self.square) fill=\"none\" stroke-width=\"inherit\"/></g>"
        ).shapes
        #expect(
            shapes[0].fill == CardArtPaint(red: 255, green: 0, blue: 0, opacity: 0.5) && shapes[0].fillRule == .evenodd
        )
        #expect(shapes[0].stroke == CardArtPaint(red: 0, green: 0, blue: 255) && shapes[0].strokeWidth == 3)
        #expect(shapes[1].fill == nil && shapes[1].strokeWidth == 3)
    }

    @Test func groupOpacityIsFoldedIntoEachShape() throws {
        let shape = try S.shape(
            "<g opacity=\"0.5\"><path \(Self.square) opacity=\"50%\" fill-opacity=\"0.5\" stroke=\"black\" stroke-opacity=\"1\"/></g>"
        )
        #expect(shape.fill?.opacity == 0.125 && shape.stroke?.opacity == 0.25)
        // Opacity is not inherited as a value: a sibling outside the group is opaque.
        let shapes = try S.art("<g opacity=\"0.5\"/><path \(Self.square)/>").shapes
        #expect(shapes[0].fill?.opacity == 1)
    }

    @Test func hiddenContentIsSkipped() throws {
        let art = try S.art(
            "<g display=\"none\"><path \(Self.square)/></g><path style=\"display:none\" \(Self.square)/>"
                + "<g visibility=\"hidden\"><path \(Self.square)/><path visibility=\"visible\" d=\"M0 0H1V1Z\"/></g>"
        )
        #expect(art.shapes.count == 1)
        #expect(S.ends(art.shapes[0].path.elements)[1] == S.p(1, 0))
    }

    @Test func colourSyntaxes() throws {
        let cases: [(String, CardArtPaint?)] = [
            ("#abc", CardArtPaint(red: 0xAA, green: 0xBB, blue: 0xCC)),
            ("#0A0b0C", CardArtPaint(red: 10, green: 11, blue: 12)),
            ("rgb(255, 0, 10)", CardArtPaint(red: 255, green: 0, blue: 10)),
            ("rgb(100%,50%,0%)", CardArtPaint(red: 255, green: 128, blue: 0)),
            ("Teal", CardArtPaint(red: 0, green: 128, blue: 128)),
            ("currentColor", CardArtPaint(red: 0, green: 0, blue: 0)),
            ("white", CardArtPaint(red: 255, green: 255, blue: 255)), ("transparent", nil), ("none", nil),
        ]
        for (colour, paint) in cases {
            #expect(
                try S.art("<path \(Self.square) fill=\"\(colour)\" stroke=\"red\"/>").shapes.first?.fill == paint,
                "\(colour)"
            )
        }
        for bad in ["#abcd", "rgb(1,2)", "hotpink", "hsl(0,0%,0%)"] {
            #expect(S.error(S.document("<path \(Self.square) fill=\"\(bad)\"/>")) == .invalidColor(bad))
        }
    }

    @Test func zeroWidthStrokesAndLineFillsAreDropped() throws {
        #expect(try S.shape("<path \(Self.square) stroke=\"red\" stroke-width=\"0\"/>").stroke == nil)
        let line = try S.shape("<line x1=\"0\" y1=\"0\" x2=\"10\" y2=\"0\" fill=\"red\" stroke=\"blue\"/>")
        #expect(line.fill == nil && line.stroke == CardArtPaint(red: 0, green: 0, blue: 255))
        // Nothing painted at all: no shape.
        #expect(try S.art("<path \(Self.square) fill=\"none\"/>").shapes.isEmpty)
    }

    @Test func basicShapes() throws {
        let rect = try S.shape("<rect x=\"10\" y=\"20\" width=\"30\" height=\"40\" rx=\"5\"/>")
        // The corners are quarter ellipses with rx = ry = 5: eleven elements, starting after the top-left corner.
        #expect(rect.path.elements.count == 10 && S.ends(rect.path.elements).first == S.p(15, 20))
        #expect(S.ends(rect.path.elements)[2] == S.p(40, 25))
        let circle = try S.shape("<circle cx=\"50\" cy=\"50\" r=\"10\"/>")
        #expect(
            S.ends(circle.path.elements).compactMap { $0 } == [
                S.p(60, 50), S.p(50, 60), S.p(40, 50), S.p(50, 40), S.p(60, 50),
            ]
        )
        let ellipse = try S.shape("<ellipse cx=\"50\" cy=\"50\" rx=\"20\" ry=\"10\"/>")
        #expect(S.ends(ellipse.path.elements)[1] == S.p(50, 60) && S.ends(ellipse.path.elements)[2] == S.p(30, 50))
        let polygon = try S.shape("<polygon points=\"0,0 10,0 10,10\"/>")
        #expect(polygon.path.elements == [.move(S.p(0, 0)), .line(S.p(10, 0)), .line(S.p(10, 10)), .close])
        let polyline = try S.shape("<polyline points=\"0 0 10 0 10 10\" fill=\"none\" stroke=\"red\"/>")
        #expect(polyline.path.elements.last == .line(S.p(10, 10)))
        #expect(try S.art("<rect width=\"0\" height=\"10\"/><circle r=\"-1\"/>").shapes.isEmpty)
        #expect(
            S.error(S.document("<polygon points=\"0 0 10\"/>")) == .invalidValue(attribute: "points", value: "0 0 10")
        )
        #expect(
            S.error(S.document("<rect width=\"50%\" height=\"10\"/>"))
                == .invalidValue(attribute: "width", value: "50%")
        )
    }
}
