import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Transform lists, their order, every transform function, nesting, and stroke scaling.
@Suite struct CardArtTransformTests {
    typealias S = CardArtSamples

    static func map(_ transform: String, _ x: Double, _ y: Double) throws -> CardArtPoint {
        try CardArtTransform.parse(transform).apply(S.p(x, y))
    }

    static func close(_ a: CardArtPoint, _ b: CardArtPoint) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

    @Test func listsApplyTheRightmostFirst() throws {
        #expect(try Self.map("translate(10,20) scale(2)", 1, 1) == S.p(12, 22))
        #expect(try Self.map("scale(2) translate(10,20)", 1, 1) == S.p(22, 42))
        #expect(try Self.map("translate(10) , scale(2,3)", 1, 1) == S.p(12, 3))
    }

    @Test func everyFunction() throws {
        #expect(try Self.map("matrix(1,2,3,4,5,6)", 1, 1) == S.p(9, 12))
        #expect(try Self.close(Self.map("rotate(90)", 1, 0), S.p(0, 1)))
        #expect(try Self.close(Self.map("rotate(90, 10, 10)", 20, 10), S.p(10, 20)))
        #expect(try Self.close(Self.map("skewX(45)", 0, 10), S.p(10, 10)))
        #expect(try Self.close(Self.map("skewY(45)", 10, 0), S.p(10, 10)))
        #expect(try Self.map("scale(-1)", 3, 4) == S.p(-3, -4))
    }

    @Test func malformedTransformsAreRefused() {
        for text in ["translate(1,2,3)", "rotate(", "spin(10)", "scale()", "translate(1 2) x"] {
            #expect(throws: CardArtError.invalidValue(attribute: "transform", value: text)) {
                try CardArtTransform.parse(text)
            }
        }
    }

    @Test func nestedGroupsComposeParentFirst() throws {
        let shape = try S.shape(
            "<g transform=\"translate(10 0)\"><g transform=\"scale(2)\"><rect width=\"1\" height=\"1\"/></g></g>"
        )
        #expect(S.ends(shape.path.elements).compactMap { $0 } == [S.p(10, 0), S.p(12, 0), S.p(12, 2), S.p(10, 2)])
        let own = try S.shape(
            "<g transform=\"scale(2)\"><rect transform=\"translate(1 1)\" width=\"1\" height=\"1\"/></g>"
        )
        #expect(S.ends(own.path.elements).first == S.p(2, 2))
    }

    @Test func strokeWidthScalesByTheMeanScale() throws {
        let uniform = try S.shape(
            "<g transform=\"scale(3)\"><path d=\"M0 0H5\" stroke=\"red\" stroke-width=\"2\"/></g>"
        )
        #expect(uniform.strokeWidth == 6)
        // scale(2 8): the geometric mean 4 stands in for SVG's stretched pen.
        let stretched = try S.shape("<g transform=\"scale(2 8)\"><path d=\"M0 0H5\" stroke=\"red\"/></g>")
        #expect(stretched.strokeWidth == 4)
        let rotated = try S.shape("<path transform=\"rotate(30)\" d=\"M0 0H5\" stroke=\"red\" stroke-width=\"1.5\"/>")
        #expect(rotated.strokeWidth == 1.5)
    }

    @Test func rootTransformAndUnitsApply() throws {
        let art = try CardArt(
            svg: Data("<svg width=\"10mm\" height=\"1in\"><rect x=\"1mm\" width=\"1in\" height=\"1pt\"/></svg>".utf8)
        )
        #expect(art.viewBox == CardArtViewBox(x: 0, y: 0, width: CardArtNumber.quantize(10 * 96 / 25.4), height: 96))
        #expect(S.ends(art.shapes[0].path.elements)[1] == S.p(CardArtNumber.quantize(96 / 25.4 + 96), 0))
    }
}
