/// A rectangle on a card in millimetres, measured from the trim's top-left corner with y growing downwards.
public struct CardRect: Sendable, Hashable, Codable {
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

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
}

/// Where each line sits horizontally in its label's box.
public enum CardTextAlignment: String, Sendable, Hashable, Codable, CaseIterable {
    case left
    case center
    case right
}
