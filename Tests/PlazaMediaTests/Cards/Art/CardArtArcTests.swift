import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Arc to cubic conversion (SVG implementation notes F.6): points on the circle or ellipse, radii correction, flags.
@Suite struct CardArtArcTests {
    typealias S = CardArtSamples

    /// Distances from `centre` of the start, end and t = 0.5 point of each cubic.
    static func radii(_ start: CardArtPoint, _ elements: [CardArtPath.Element], centre: CardArtPoint) -> [Double] {
        var from = start
        var distances: [Double] = []
        for element in elements {
            guard case .cubic(_, _, let end) = element, let middle = S.evaluate(from, element, at: 0.5) else {
                return []
            }
            for point in [from, middle, end] { distances.append(hypot(point.x - centre.x, point.y - centre.y)) }
            from = end
        }
        return distances
    }

    @Test func quarterCircleEndsAndMidpointLieOnTheCircle() throws {
        let start = S.p(1, 0)
        let elements = CardArtArc.cubics(
            from: start,
            radiusX: 1,
            radiusY: 1,
            rotation: 0,
            largeArc: false,
            sweep: true,
            to: S.p(0, 1)
        )
        try #require(elements.count == 1)
        guard case .cubic(let c1, let c2, let end) = elements[0] else { throw CardArtError.tooManySegments }
        #expect(end == S.p(0, 1))
        // The tangents at the ends: straight down from (1, 0), straight left into (0, 1).
        #expect(abs(c1.x - 1) < 1e-12 && abs(c2.y - 1) < 1e-12)
        let middle = try #require(S.evaluate(start, elements[0], at: 0.5))
        #expect(abs(middle.x - 0.5.squareRoot()) < 1e-6 && abs(middle.y - 0.5.squareRoot()) < 1e-6)
        #expect(Self.radii(start, elements, centre: S.p(0, 0)).allSatisfy { abs($0 - 1) < 1e-6 })
    }

    @Test func largeArcTakesThreeQuarters() {
        let start = S.p(1, 0)
        // From (1, 0) to (0, -1): the short way is a quarter counter-clockwise; large-arc with sweep goes round the long way.
        let elements = CardArtArc.cubics(
            from: start,
            radiusX: 1,
            radiusY: 1,
            rotation: 0,
            largeArc: true,
            sweep: true,
            to: S.p(0, -1)
        )
        #expect(elements.count == 3)
        // Through the bottom (y down) and the left: (0, 1), (-1, 0), then exactly the requested end.
        let ends = S.ends(elements).compactMap { $0 }
        let expected = [S.p(0, 1), S.p(-1, 0), S.p(0, -1)]
        #expect(
            zip(ends, expected).allSatisfy { abs($0.x - $1.x) < 1e-9 && abs($0.y - $1.y) < 1e-9 }
                && ends.last == S.p(0, -1)
        )
        #expect(Self.radii(start, elements, centre: S.p(0, 0)).allSatisfy { abs($0 - 1) < 1e-6 })
        let small = CardArtArc.cubics(
            from: start,
            radiusX: 1,
            radiusY: 1,
            rotation: 0,
            largeArc: false,
            sweep: false,
            to: S.p(0, -1)
        )
        #expect(small.count == 1)
    }

    @Test func radiiTooSmallAreScaledUp() {
        // Radius 1 cannot span 10 units: it grows to 5, a half circle about (5, 0).
        let elements = CardArtArc.cubics(
            from: S.p(0, 0),
            radiusX: 1,
            radiusY: 1,
            rotation: 0,
            largeArc: false,
            sweep: true,
            to: S.p(10, 0)
        )
        #expect(elements.count == 2)
        #expect(Self.radii(S.p(0, 0), elements, centre: S.p(5, 0)).allSatisfy { abs($0 - 5) < 1e-6 })
    }

    @Test func rotatedEllipseStaysOnTheEllipse() {
        // An ellipse with radii 2 and 1 turned 90°: in its own axes, x along the page's y.
        let start = S.p(0, -2)
        let elements = CardArtArc.cubics(
            from: start,
            radiusX: 2,
            radiusY: 1,
            rotation: 90,
            largeArc: false,
            sweep: true,
            to: S.p(0, 2)
        )
        var from = start
        for element in elements {
            for t in [0.0, 0.5, 1.0] {
                guard let point = S.evaluate(from, element, at: t) else { return #expect(Bool(false)) }
                // Centre (0, 0); the long axis is vertical.
                #expect(abs(point.y * point.y / 4 + point.x * point.x - 1) < 1e-6)
            }
            if case .cubic(_, _, let end) = element { from = end }
        }
        #expect(S.ends(elements).last == S.p(0, 2))
    }

    @Test func arcsInTheModelAreWithinTheGrid() throws {
        let shape = try S.shape("<path d=\"M60 50 A10 10 0 0 1 50 60\"/>")
        let start = S.p(60, 50)
        let elements = Array(shape.path.elements.dropFirst())
        #expect(Self.radii(start, elements, centre: S.p(50, 50)).allSatisfy { abs($0 - 10) < 1e-4 })
    }
}
