import PlazaCore
import PlazaMedia

/// The opacity graphics states (ExtGState, `/ca` for fills and `/CA` for strokes) that the pages' art needs, written
/// as direct dictionaries in the shared resource dictionary and named `/GS1`, `/GS2`, ... in sorted order, so the names
/// and therefore the bytes do not depend on drawing order.
struct PDFGraphicsStates {
    /// A fill and stroke opacity pair; only pairs with something below 1 need a state.
    struct Opacity: Hashable, Comparable {
        var fill: Double
        var stroke: Double

        static func < (lhs: Opacity, rhs: Opacity) -> Bool {
            (lhs.fill, lhs.stroke) < (rhs.fill, rhs.stroke)
        }
    }

    private let ordered: [Opacity]
    private let names: [Opacity: String]

    init(_ pages: [PDFCanvas]) {
        var found = Set<Opacity>()
        for page in pages {
            for case .art(let art, _) in page.operations {
                for shape in art.shapes {
                    if let opacity = Self.opacity(of: shape) { found.insert(opacity) }
                }
            }
        }
        ordered = found.sorted()
        names = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($1, "GS\($0 + 1)") })
    }

    /// The opacities a shape paints with, or `nil` when it is fully opaque (the default state then suffices).
    static func opacity(of shape: CardArtShape) -> Opacity? {
        let opacity = Opacity(fill: shape.fill?.opacity ?? 1, stroke: shape.stroke?.opacity ?? 1)
        return opacity.fill < 1 || opacity.stroke < 1 ? opacity : nil
    }

    /// The resource name to select with `gs` for `shape`, if it needs one.
    func name(for shape: CardArtShape) -> String? {
        Self.opacity(of: shape).flatMap { names[$0] }
    }

    /// ` /ExtGState << ... >>` for the page resource dictionary, or nothing when no art is translucent.
    var resourceEntry: String {
        guard !ordered.isEmpty else { return "" }
        let states = ordered.map { opacity in
            let fill = PDFSyntax.number(min(max(opacity.fill, 0), 1))
            let stroke = PDFSyntax.number(min(max(opacity.stroke, 0), 1))
            return " /\(names[opacity]!) << /Type /ExtGState /ca \(fill) /CA \(stroke) >>"
        }
        return " /ExtGState <<" + states.joined() + " >>"
    }
}
