import PlazaCore
import PlazaMedia

/// Writes a canvas's operations as a page content stream. Every glyph gets its own text matrix at the layout's x and
/// baseline, so the PDF places glyphs where the layout (and therefore the SVG preview) did, with no advance widths or
/// kerning re-applied by the viewer.
enum PDFContentStream {
    static func build(
        _ canvas: PDFCanvas,
        fonts: [String: String],
        images: [PDFImage: String],
        graphicsStates: PDFGraphicsStates
    ) -> String {
        let geometry = PDFPageGeometry(canvas)
        var out = ""
        func point(_ x: Double, _ y: Double) -> String {
            PDFSyntax.number(geometry.x(x)) + " " + PDFSyntax.number(geometry.y(y))
        }
        for operation in canvas.operations {
            switch operation {
            case .path(let path, let fill, let stroke, let lineWidth):
                out += "q\n"
                if let fill { out += fill.operands + " rg\n" }
                if let stroke {
                    out += stroke.operands + " RG\n" + PDFSyntax.number(geometry.length(lineWidth)) + " w\n"
                }
                for element in path.elements {
                    switch element {
                    case .move(let x, let y): out += point(x, y) + " m\n"
                    case .line(let x, let y): out += point(x, y) + " l\n"
                    case .curve(let x1, let y1, let x2, let y2, let x, let y):
                        out += point(x1, y1) + " " + point(x2, y2) + " " + point(x, y) + " c\n"
                    case .close: out += "h\n"
                    }
                }
                out += (fill != nil && stroke != nil ? "B" : fill != nil ? "f" : "S") + "\nQ\n"
            case .image(let image, let rect):
                guard let name = images[image] else { continue }
                let matrix = [
                    geometry.length(rect.width), 0, 0, geometry.length(rect.height), geometry.x(rect.x),
                    geometry.y(rect.maxY),
                ]
                out += "q\n" + matrix.map { PDFSyntax.number($0) }.joined(separator: " ") + " cm\n/\(name) Do\nQ\n"
            case .clippedImage(let image, let rect, let clip, let orientation):
                guard let name = images[image] else { continue }
                out += clippedImageOperators(name, in: rect, clip: clip, orientation: orientation, geometry: geometry)
            case .text(let line, let font, let size, let color):
                guard let name = fonts[font.id], !line.glyphs.isEmpty else { continue }
                out += "BT\n/\(name) \(PDFSyntax.number(size)) Tf\n\(color.operands) rg\n"
                let baseline = PDFSyntax.number(geometry.y(line.baseline))
                for glyph in line.glyphs {
                    out +=
                        "1 0 0 1 \(PDFSyntax.number(geometry.x(glyph.x))) \(baseline) Tm \(PDFSyntax.glyphCode(glyph.id)) Tj\n"
                }
                out += "ET\n"
            case .art(let art, let rect):
                out += artOperators(art, in: rect, geometry: geometry, graphicsStates: graphicsStates)
            }
        }
        return out
    }
}
