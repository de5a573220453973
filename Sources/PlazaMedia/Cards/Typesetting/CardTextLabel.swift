import PlazaCore

/// One text label to set: what to write, in which font and size, inside which box.
public struct CardTextLabel: Sendable {
    /// May contain "\n" (or "\r\n") hard breaks.
    public var text: String
    public var font: CardFont
    /// Type size in points.
    public var size: Double
    public var box: CardRect
    public var alignment: CardTextAlignment
    /// 0 means unlimited.
    public var maxLines: Int
    /// Baseline-to-baseline distance in points; nil means `defaultLineHeightFactor` × size.
    public var lineHeight: Double?

    /// 1.2 × size: CSS's usual `normal` and the classic "10 on 12" leading. A fixed factor (rather than each font's own
    /// hhea ascender + descender + lineGap, which ranges from 1.0 em for EB Garamond to 1.25 em for Kristi) gives the
    /// same rhythm whichever font a customer picks, so switching fonts never reflows lines into or out of the box.
    public static let defaultLineHeightFactor = 1.2

    public init(
        text: String,
        font: CardFont,
        size: Double,
        box: CardRect,
        alignment: CardTextAlignment = .left,
        maxLines: Int = 0,
        lineHeight: Double? = nil
    ) {
        self.text = text
        self.font = font
        self.size = size
        self.box = box
        self.alignment = alignment
        self.maxLines = maxLines
        self.lineHeight = lineHeight
    }

    /// The baseline-to-baseline distance actually used, in points.
    public var effectiveLineHeight: Double {
        lineHeight ?? size * Self.defaultLineHeightFactor
    }
}
