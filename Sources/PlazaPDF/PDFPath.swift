import PlazaCore

/// A vector path in card millimetres (from the trim's top-left, y down), filled and/or stroked on a `PDFCanvas`.
public struct PDFPath: Sendable, Hashable {
    /// One path construction step.
    public enum Element: Sendable, Hashable {
        case move(x: Double, y: Double)
        case line(x: Double, y: Double)
        /// A cubic Bézier from the current point through two control points to (x, y).
        case curve(x1: Double, y1: Double, x2: Double, y2: Double, x: Double, y: Double)
        case close
    }

    public var elements: [Element]

    public init(_ elements: [Element] = []) {
        self.elements = elements
    }

    public mutating func move(x: Double, y: Double) { elements.append(.move(x: x, y: y)) }
    public mutating func line(x: Double, y: Double) { elements.append(.line(x: x, y: y)) }
    public mutating func curve(x1: Double, y1: Double, x2: Double, y2: Double, x: Double, y: Double) {
        elements.append(.curve(x1: x1, y1: y1, x2: x2, y2: y2, x: x, y: y))
    }
    public mutating func close() { elements.append(.close) }

    /// A closed rectangle.
    public static func rectangle(_ rect: CardRect) -> PDFPath {
        PDFPath([
            .move(x: rect.x, y: rect.y), .line(x: rect.maxX, y: rect.y), .line(x: rect.maxX, y: rect.maxY),
            .line(x: rect.x, y: rect.maxY),
            .close,
        ])
    }
}
