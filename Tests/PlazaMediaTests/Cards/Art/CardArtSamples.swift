import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Builds SVG documents for the art tests and reads the model back in short forms.
enum CardArtSamples {
    static func document(_ body: String, viewBox: String = "0 0 100 100") -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(viewBox)\">\(body)</svg>"
    }

    static func art(_ body: String, viewBox: String = "0 0 100 100") throws -> CardArt {
        try CardArt(svg: Data(document(body, viewBox: viewBox).utf8))
    }

    /// The only shape of `body`, failing the test when there is not exactly one.
    static func shape(_ body: String) throws -> CardArtShape {
        let shapes = try art(body).shapes
        try #require(shapes.count == 1, "expected one shape, got \(shapes.count)")
        return shapes[0]
    }

    /// The error parsing `svg` throws, or `nil` when it parses.
    static func error(_ svg: String) -> CardArtError? {
        do {
            _ = try CardArt(svg: Data(svg.utf8))
            return nil
        } catch {
            return error
        }
    }

    static func p(_ x: Double, _ y: Double) -> CardArtPoint { CardArtPoint(x: x, y: y) }

    /// Path data parsed in element coordinates, with a generous budget.
    static func path(_ data: String) throws -> [CardArtPath.Element] {
        try CardArtPathData.parse(data, budget: 1_000)
    }

    /// The end points of a path's elements, in order (nil for close).
    static func ends(_ elements: [CardArtPath.Element]) -> [CardArtPoint?] {
        elements.map { element in
            switch element {
            case .move(let point), .line(let point), .cubic(_, _, let point): return point
            case .close: return nil
            }
        }
    }

    /// The point at parameter `t` of the cubic from `start`.
    static func evaluate(_ start: CardArtPoint, _ element: CardArtPath.Element, at t: Double) -> CardArtPoint? {
        guard case .cubic(let c1, let c2, let end) = element else { return nil }
        let u = 1 - t
        let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
        return CardArtPoint(
            x: a * start.x + b * c1.x + c * c2.x + d * end.x,
            y: a * start.y + b * c1.y + c * c2.y + d * end.y
        )
    }
}
