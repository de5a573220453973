import PlazaCore

/// One drawable shape of a `CardArt`: a path in viewBox coordinates, filled and/or stroked.
public struct CardArtShape: Sendable, Hashable {
    public var path: CardArtPath
    /// `nil` when the shape is not filled.
    public var fill: CardArtPaint?
    public var fillRule: CardArtFillRule
    /// `nil` when the shape is not stroked (also when its stroke width is zero, which SVG does not draw).
    public var stroke: CardArtPaint?
    /// In viewBox units, 0 when not stroked. An SVG transform scales strokes by its mean scale (the square root of its determinant), so a
    /// non-uniformly scaled stroke, which SVG would draw thicker one way than the other, is approximated by one width.
    public var strokeWidth: Double

    public init(
        path: CardArtPath,
        fill: CardArtPaint?,
        fillRule: CardArtFillRule = .nonzero,
        stroke: CardArtPaint? = nil,
        strokeWidth: Double = 0
    ) {
        self.path = path
        self.fill = fill
        self.fillRule = fillRule
        self.stroke = stroke
        self.strokeWidth = strokeWidth
    }
}

/// Which areas of a self-intersecting or nested path are inside (SVG `fill-rule`, PDF `f` / `f*`).
public enum CardArtFillRule: String, Sendable, Hashable, CaseIterable {
    case nonzero
    case evenodd
}

/// A flat colour with an opacity that already includes every enclosing group's `opacity`.
public struct CardArtPaint: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 0...1.
    public var opacity: Double

    public init(red: UInt8, green: UInt8, blue: UInt8, opacity: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = opacity
    }

    /// `#rrggbb`, lowercase, as the clean SVG writes it.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        return "#" + String([red, green, blue].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
