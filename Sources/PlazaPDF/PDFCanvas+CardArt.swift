import PlazaCore
import PlazaMedia

extension PDFCanvas {
    /// Draws vector art stretched to fill `rect` exactly (card millimetres, y down from the trim's top-left; a page's
    /// art is usually given `bleedRect`), shape by shape with the geometry, fill rules, stroke widths and opacities the
    /// clean SVG preview (`CardArt.svgFragment(in:)`) shows. Translucent shapes use ExtGState opacity resources.
    public mutating func draw(_ art: CardArt, in rect: CardRect) {
        guard !art.shapes.isEmpty, rect.width > 0, rect.height > 0 else { return }
        operations.append(.art(art, rect))
    }
}

extension PDFContentStream {
    /// SVG's default miter limit; PDF's is 10, which would draw long spikes at sharp corners the browser bevels.
    private static let svgMiterLimit = "4 M\n"

    /// Draws art the way the SVG preview does: one `cm` maps viewBox units onto `rect` (stretched, like
    /// `preserveAspectRatio="none"`), then every shape is written in viewBox units. The PDF transform therefore scales
    /// stroke widths exactly as the browser's `g` transform does, including a non-uniform stretch.
    static func artOperators(
        _ art: CardArt,
        in rect: CardRect,
        geometry: PDFPageGeometry,
        graphicsStates: PDFGraphicsStates
    ) -> String {
        let box = art.viewBox
        guard box.width > 0, box.height > 0, !art.shapes.isEmpty else { return "" }
        // Millimetres per viewBox unit, then points; y flips because PDF's axis points up.
        let scaleX = rect.width / box.width
        let scaleY = rect.height / box.height
        let matrix = [
            geometry.length(scaleX), 0, 0, -geometry.length(scaleY), geometry.x(rect.x - box.x * scaleX),
            geometry.y(rect.y - box.y * scaleY),
        ]
        // Eight decimals: a large viewBox has small scale factors, and four would shift the far edge visibly.
        var out =
            "q\n" + matrix.map { PDFSyntax.number($0, decimals: 8) }.joined(separator: " ") + " cm\n" + svgMiterLimit
        for shape in art.shapes {
            let state = graphicsStates.name(for: shape)
            if let state { out += "q\n/\(state) gs\n" }
            if let fill = shape.fill { out += color(fill).operands + " rg\n" }
            if let stroke = shape.stroke {
                out += color(stroke).operands + " RG\n" + PDFSyntax.number(shape.strokeWidth) + " w\n"
            }
            out += pathOperators(shape.path)
            let evenOdd = shape.fillRule == .evenodd
            switch (shape.fill != nil, shape.stroke != nil) {
            case (true, true): out += evenOdd ? "B*\n" : "B\n"
            case (true, false): out += evenOdd ? "f*\n" : "f\n"
            case (false, true): out += "S\n"
            case (false, false): out += "n\n"
            }
            if state != nil { out += "Q\n" }
        }
        return out + "Q\n"
    }

    private static func pathOperators(_ path: CardArtPath) -> String {
        var out = ""
        func point(_ point: CardArtPoint) -> String { PDFSyntax.number(point.x) + " " + PDFSyntax.number(point.y) }
        for element in path.elements {
            switch element {
            case .move(let to): out += point(to) + " m\n"
            case .line(let to): out += point(to) + " l\n"
            case .cubic(let c1, let c2, let to): out += point(c1) + " " + point(c2) + " " + point(to) + " c\n"
            case .close: out += "h\n"
            }
        }
        return out
    }

    private static func color(_ paint: CardArtPaint) -> PDFColor {
        PDFColor(red255: Int(paint.red), green: Int(paint.green), blue: Int(paint.blue))
    }
}
