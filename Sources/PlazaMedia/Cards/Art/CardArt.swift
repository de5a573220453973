import Foundation
import PlazaCore

/// Page art parsed from an uploaded SVG into our own model: a viewBox and a flat list of filled and/or stroked paths in
/// viewBox coordinates, every transform, inherited style and group opacity already applied.
///
/// The model is what we trust, never the upload: the browser preview is re-serialized from it (`svgDocument`,
/// `svgFragment(in:)`) and the print file draws the same shapes, so preview and print agree and no script or external
/// reference in the upload can reach a browser. Coordinates, widths and opacities are rounded to 1/10000 (of a viewBox
/// unit), so the clean SVG, which prints four decimals, parses back to an identical model.
public struct CardArt: Sendable, Hashable {
    /// Uploads larger than this are refused before any parsing.
    public static let maximumBytes = 20 * 1024 * 1024
    /// Path elements (moves, lines, curves, closes) over the whole document; arcs count the curves they become.
    public static let maximumSegments = 100_000
    /// Element nesting depth, counting the root `svg`.
    public static let maximumNesting = 50

    /// The coordinate system of `shapes`; art is stretched so that this box fills its target rectangle exactly.
    public var viewBox: CardArtViewBox
    /// Painted in order, later shapes over earlier ones.
    public var shapes: [CardArtShape]

    public init(viewBox: CardArtViewBox, shapes: [CardArtShape]) {
        self.viewBox = viewBox
        self.shapes = shapes
    }

    /// Parses the supported SVG subset; throws a `CardArtError` whose `message` tells the designer what to change.
    public init(svg data: Data) throws(CardArtError) {
        self = try CardArtParser.parse(data)
    }
}

/// The art's own coordinate box (the SVG `viewBox`), in SVG user units.
public struct CardArtViewBox: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
