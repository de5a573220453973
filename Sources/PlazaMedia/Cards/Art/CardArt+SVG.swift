import PlazaCore

/// The clean SVG served to browsers, re-serialized from the model (never the uploaded bytes): only `path` elements
/// with `d`, fill and stroke attributes, numbers with at most four decimals, so the same art always gives the same text.
extension CardArt {
    /// A standalone document for serving the art itself. `preserveAspectRatio="none"`: wherever it is shown, the viewBox
    /// is stretched to the box, as on a card.
    public var svgDocument: String {
        let box = [viewBox.x, viewBox.y, viewBox.width, viewBox.height].map { CardArtNumber.format($0) }.joined(
            separator: " "
        )
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(box)\" preserveAspectRatio=\"none\">"
            + pathElements + "</svg>"
    }

    /// A fragment for a card's SVG: a `g` whose transform maps the viewBox onto `rect` exactly (stretched, not fitted,
    /// so a page's art covers the page including its bleed). Shapes reaching outside the viewBox are not clipped here,
    /// nor in the PDF, so preview and print agree; on a page, the page edge clips them.
    public func svgFragment(in rect: CardRect) -> String {
        let scaleX = rect.width / viewBox.width
        let scaleY = rect.height / viewBox.height
        let matrix = [scaleX, 0, 0, scaleY, rect.x - viewBox.x * scaleX, rect.y - viewBox.y * scaleY]
        // Eight decimals: a large viewBox placed in millimetres has small scale factors.
        let transform = matrix.map { CardArtNumber.format($0, decimals: 8) }.joined(separator: " ")
        return "<g transform=\"matrix(\(transform))\">" + pathElements + "</g>"
    }

    private var pathElements: String {
        var out = ""
        for shape in shapes {
            out += "<path d=\"" + shape.path.svgData + "\""
            if let fill = shape.fill {
                out += " fill=\"\(fill.hex)\""
                if fill.opacity < 1 { out += " fill-opacity=\"\(CardArtNumber.format(fill.opacity))\"" }
                if shape.fillRule == .evenodd { out += " fill-rule=\"evenodd\"" }
            } else {
                out += " fill=\"none\""
            }
            if let stroke = shape.stroke {
                out += " stroke=\"\(stroke.hex)\""
                if stroke.opacity < 1 { out += " stroke-opacity=\"\(CardArtNumber.format(stroke.opacity))\"" }
                out += " stroke-width=\"\(CardArtNumber.format(shape.strokeWidth))\""
            }
            out += "/>"
        }
        return out
    }
}

extension CardArtPath {
    /// Path data with absolute commands only (`M`, `L`, `C`, `Z`), numbers separated by single spaces.
    var svgData: String {
        var out = ""
        func add(_ points: CardArtPoint...) {
            for point in points { out += CardArtNumber.format(point.x) + " " + CardArtNumber.format(point.y) + " " }
        }
        for element in elements {
            switch element {
            case .move(let point):
                out += "M"
                add(point)
            case .line(let point):
                out += "L"
                add(point)
            case .cubic(let c1, let c2, let point):
                out += "C"
                add(c1, c2, point)
            case .close: out += "Z "
            }
        }
        return String(out.dropLast())
    }
}
