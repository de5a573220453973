import PlazaCore

/// A path in absolute viewBox coordinates, made only of moves, straight lines, cubic Béziers and closes (quadratic
/// curves and arcs are converted to cubics when parsed), so SVG and PDF can both draw it without interpretation.
public struct CardArtPath: Sendable, Hashable {
    /// One path construction step.
    public enum Element: Sendable, Hashable {
        case move(CardArtPoint)
        case line(CardArtPoint)
        /// A cubic Bézier from the current point through two control points to the last point.
        case cubic(CardArtPoint, CardArtPoint, CardArtPoint)
        /// Closes the subpath; the next element is always a `move` (the parser makes SVG's implicit one explicit).
        case close
    }

    public var elements: [Element]

    public init(_ elements: [Element] = []) {
        self.elements = elements
    }

    /// Whether anything would be drawn: a path of moves alone paints nothing.
    var draws: Bool {
        elements.contains {
            if case .move = $0 { return false }
            return true
        }
    }

    /// Every point mapped through `transform` and rounded to the model's 1/10000 grid.
    func applying(_ transform: CardArtTransform) -> CardArtPath {
        func map(_ point: CardArtPoint) -> CardArtPoint { transform.apply(point).quantized }
        return CardArtPath(
            elements.map { element in
                switch element {
                case .move(let point): return .move(map(point))
                case .line(let point): return .line(map(point))
                case .cubic(let c1, let c2, let point): return .cubic(map(c1), map(c2), map(point))
                case .close: return .close
                }
            }
        )
    }
}

/// A point in viewBox coordinates (y down, as in SVG).
public struct CardArtPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    var quantized: CardArtPoint { CardArtPoint(x: CardArtNumber.quantize(x), y: CardArtNumber.quantize(y)) }
}

extension CardArtPath {
    /// Whether every coordinate is within the model's range (a transform can push finite input past it).
    var isWithinLimit: Bool {
        func ok(_ point: CardArtPoint) -> Bool {
            abs(point.x) <= CardArtNumber.limit && abs(point.y) <= CardArtNumber.limit
        }
        return elements.allSatisfy { element in
            switch element {
            case .move(let point), .line(let point): return ok(point)
            case .cubic(let c1, let c2, let point): return ok(c1) && ok(c2) && ok(point)
            case .close: return true
            }
        }
    }
}
