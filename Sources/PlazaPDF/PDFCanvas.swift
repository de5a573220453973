import PlazaCore
import PlazaMedia

/// One page being drawn, in card coordinates: millimetres from the trim's top-left corner, y down, exactly the numbers
/// the layout engine and the SVG preview use. The page itself is the trim plus `bleed` on every side; the writer turns
/// these coordinates into PDF points from the bottom-left of the bleed.
public struct PDFCanvas: Sendable {
    /// A recorded drawing step, replayed into the content stream in order.
    enum Operation: Sendable {
        case path(PDFPath, fill: PDFColor?, stroke: PDFColor?, lineWidth: Double)
        case image(PDFImage, CardRect)
        /// An image stretched to its rect, turned as its EXIF orientation (1–8) says, seen through the clip rect.
        case clippedImage(PDFImage, CardRect, clip: CardRect, orientation: Int)
        case text(CardTextLine, font: CardFont, size: Double, color: PDFColor)
        case art(CardArt, CardRect)
    }

    /// Trim size in millimetres.
    public let trimWidth: Double
    public let trimHeight: Double
    /// Bleed on each side in millimetres (3 mm is the usual print-shop request).
    public let bleed: Double
    var operations: [Operation] = []

    public init(trimWidth: Double, trimHeight: Double, bleed: Double = 3) {
        self.trimWidth = trimWidth
        self.trimHeight = trimHeight
        self.bleed = bleed
    }

    /// The whole page (trim plus bleed) in card coordinates: backgrounds should cover this, not just the trim.
    public var bleedRect: CardRect {
        CardRect(x: -bleed, y: -bleed, width: trimWidth + 2 * bleed, height: trimHeight + 2 * bleed)
    }

    public mutating func fill(_ rect: CardRect, color: PDFColor) {
        operations.append(.path(.rectangle(rect), fill: color, stroke: nil, lineWidth: 0))
    }

    /// Fills and/or strokes a path; `lineWidth` is in millimetres.
    public mutating func draw(_ path: PDFPath, fill: PDFColor? = nil, stroke: PDFColor? = nil, lineWidth: Double = 0.25)
    {
        guard fill != nil || stroke != nil else { return }
        operations.append(.path(path, fill: fill, stroke: stroke, lineWidth: lineWidth))
    }

    /// Places an image stretched to `rect`.
    public mutating func draw(_ image: PDFImage, in rect: CardRect) {
        operations.append(.image(image, rect))
    }

    /// Draws one laid-out line glyph by glyph at the layout's own x positions and baseline.
    public mutating func draw(_ line: CardTextLine, font: CardFont, size: Double, color: PDFColor = .black) {
        operations.append(.text(line, font: font, size: size, color: color))
    }

    /// Draws every line of a layout (overflowing ones too: leave them out of `layout.lines` to drop them). Throws when
    /// `font` is not the font the layout was made with, since its glyph ids would then name other glyphs.
    public mutating func draw(_ layout: CardTextLayout, font: CardFont, color: PDFColor = .black) throws {
        guard layout.fontID == font.id else {
            throw PDFError.fontMismatch(layoutFontID: layout.fontID, fontID: font.id)
        }
        for line in layout.lines { draw(line, font: font, size: layout.size, color: color) }
    }
}
