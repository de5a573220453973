import PlazaCore

/// A label laid out: where every glyph goes. The SVG preview and the PDF both draw from these numbers and nothing else,
/// which is what makes the approved preview and the print file agree.
public struct CardTextLayout: Sendable, Hashable {
    /// The `CardFont.id` the glyph ids belong to.
    public var fontID: String
    /// Type size in points.
    public var size: Double
    /// Baseline-to-baseline distance in millimetres.
    public var lineHeight: Double
    /// The font's hhea ascender at this size, in millimetres: the first baseline sits this far below the box's top.
    public var ascent: Double
    /// The font's hhea descender at this size as a positive distance below the baseline, in millimetres.
    public var descent: Double
    /// Every line, including those that overflow (the preview shows them so the customer sees what will not fit).
    public var lines: [CardTextLine]
    /// More lines than `maxLines`, lines reaching below the box, or a line wider than the box.
    public var overflow: Bool
    /// Characters the font has no glyph for (they are set as `.notdef`), each once, in order of first appearance.
    public var missingScalars: [Unicode.Scalar]

    public init(
        fontID: String,
        size: Double,
        lineHeight: Double,
        ascent: Double,
        descent: Double,
        lines: [CardTextLine],
        overflow: Bool,
        missingScalars: [Unicode.Scalar]
    ) {
        self.fontID = fontID
        self.size = size
        self.lineHeight = lineHeight
        self.ascent = ascent
        self.descent = descent
        self.lines = lines
        self.overflow = overflow
        self.missingScalars = missingScalars
    }

    /// From the box's top to the last line's descender, in millimetres.
    public var height: Double {
        lines.isEmpty ? 0 : ascent + Double(lines.count - 1) * lineHeight + descent
    }
}

/// One line of a laid-out label.
public struct CardTextLine: Sendable, Hashable {
    /// The characters set on this line (spaces dropped at a soft break are not in it).
    public var text: String
    public var glyphs: [CardGlyph]
    /// The line's left edge in millimetres from the trim's left (after alignment).
    public var x: Double
    /// The baseline in millimetres from the trim's top.
    public var baseline: Double
    /// Advance width of the line, kerning included, in millimetres.
    public var width: Double
    /// This line is past `maxLines`, reaches below the box, or is wider than the box.
    public var isOverflowing: Bool

    public init(text: String, glyphs: [CardGlyph], x: Double, baseline: Double, width: Double, isOverflowing: Bool) {
        self.text = text
        self.glyphs = glyphs
        self.x = x
        self.baseline = baseline
        self.width = width
        self.isOverflowing = isOverflowing
    }
}

/// One glyph placed on a line.
public struct CardGlyph: Sendable, Hashable {
    /// The glyph id in the font (0 for a missing character).
    public var id: UInt16
    /// The characters it sets: one, or several for a ligature ("ffi" set as one glyph).
    public var scalars: [Unicode.Scalar]
    /// The glyph origin in millimetres from the trim's left (kerning applied).
    public var x: Double
    /// Its advance width in millimetres (without kerning).
    public var advance: Double
    /// A ligature or a contextual form: not the glyph the font's character map gives its character, so text in that
    /// font cannot show it; the preview draws its outline instead.
    public var isSubstituted: Bool

    public init(id: UInt16, scalars: [Unicode.Scalar], x: Double, advance: Double, isSubstituted: Bool = false) {
        self.id = id
        self.scalars = scalars
        self.x = x
        self.advance = advance
        self.isSubstituted = isSubstituted
    }

    /// The characters as a string.
    public var text: String { String(String.UnicodeScalarView(scalars)) }
}
