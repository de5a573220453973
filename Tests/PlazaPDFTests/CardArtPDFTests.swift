import Foundation
import PlazaCore
import PlazaMedia
import PlazaTestSupport
import Testing

@testable import PlazaPDF

/// Card art on a PDF page, read back by qpdf and rendered by pdftoppm: fills, fill rules, opacity, strokes and the
/// stretch onto the target rectangle land where the SVG says.
@Suite struct CardArtPDFTests {
    static let k = 72 / 25.4

    /// viewBox units are millimetres when the art fills the 100 × 100 mm trim.
    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
          <path d="M10 10H40V40H10Z M20 20H30V30H20Z" fill="#0000ff" fill-rule="evenodd"/>
          <path d="M50 10H80V40H50Z M60 20H70V30H60Z" fill="#0000ff"/>
          <g opacity="0.5"><rect x="10" y="50" width="30" height="30" fill="red"/></g>
          <line x1="50" y1="65" x2="90" y2="65" stroke="#008000" stroke-width="4"/>
          <circle cx="70" cy="90" r="5" fill="none" stroke="black" stroke-width="2" stroke-opacity="0.5"/>
        </svg>
        """

    static func page(_ art: CardArt, in rect: CardRect? = nil) throws -> Data {
        var canvas = PDFCanvas(trimWidth: 100, trimHeight: 100)
        canvas.draw(art, in: rect ?? CardRect(x: 0, y: 0, width: 100, height: 100))
        var writer = PDFWriter()
        writer.add(canvas)
        return try writer.render()
    }

    /// Renders at 72 dpi and returns a sampler in card millimetres (3 mm bleed).
    static func render(_ pdf: Data) throws -> (Double, Double) -> (r: Int, g: Int, b: Int) {
        let file = try PDFFixtures.temporaryFile(pdf)
        let prefix = file.deletingPathExtension().path
        defer {
            for suffix in [".pdf", "-1.ppm"] { try? FileManager.default.removeItem(atPath: prefix + suffix) }
        }
        // PPM is pdftoppm's default output (this poppler has no -ppm flag); no PNG decoder is needed to read it.
        let output = try ExternalTool.run("pdftoppm", ["-r", "72", file.path, prefix])
        #expect(output.status == 0, "\(output.stderr)")
        let image = try PortablePixmap(Data(contentsOf: URL(fileURLWithPath: prefix + "-1.ppm")))
        return { x, y in image.pixel(Int(((x + 3) * k).rounded(.down)), Int(((y + 3) * k).rounded(.down))) }
    }

    static func near(_ pixel: (r: Int, g: Int, b: Int), _ expected: (Int, Int, Int), tolerance: Int = 3) -> Bool {
        abs(pixel.r - expected.0) <= tolerance && abs(pixel.g - expected.1) <= tolerance
            && abs(pixel.b - expected.2) <= tolerance
    }

    @Test func qpdfFindsNoProblems() throws {
        let file = try PDFFixtures.temporaryFile(try Self.page(CardArt(svg: Data(Self.svg.utf8))))
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run("qpdf", ["--check", file.path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("No syntax or stream encoding errors found"))
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    @Test func coloursLandWhereTheShapesAre() throws {
        let pixel = try Self.render(Self.page(CardArt(svg: Data(Self.svg.utf8))))
        #expect(pixel(5, 5) == (255, 255, 255), "outside every shape")
        #expect(pixel(45, 45) == (255, 255, 255), "between shapes")
        #expect(pixel(15, 15) == (0, 0, 255), "evenodd square, outer ring")
        #expect(pixel(25, 25) == (255, 255, 255), "evenodd hole")
        #expect(pixel(55, 15) == (0, 0, 255), "nonzero square, outer ring")
        #expect(pixel(65, 25) == (0, 0, 255), "nonzero: the inner square winds the same way and stays filled")
        let blended = pixel(25, 65)
        #expect(Self.near(blended, (255, 128, 128)), "50% red over white \(blended)")
        #expect(pixel(70, 65) == (0, 128, 0), "on the stroked line")
        #expect(pixel(70, 63.5) == (0, 128, 0), "inside the 4 mm line's width")
        #expect(pixel(70, 68) == (255, 255, 255), "beyond the line's half width")
        #expect(pixel(70, 90) == (255, 255, 255), "inside an unfilled circle")
        let ring = pixel(75, 90)
        #expect(Self.near(ring, (128, 128, 128), tolerance: 40), "50% black stroke \(ring)")
    }

    @Test func artIsStretchedOntoTheRectangle() throws {
        // The 100 × 100 viewBox squeezed into the top half: y halves, x stays.
        let pixel = try Self.render(
            Self.page(CardArt(svg: Data(Self.svg.utf8)), in: CardRect(x: 0, y: 0, width: 100, height: 50))
        )
        #expect(pixel(15, 7.5) == (0, 0, 255))
        #expect(pixel(25, 12.5) == (255, 255, 255))
        #expect(pixel(15, 15) == (0, 0, 255), "the evenodd square now ends at y = 20")
        #expect(pixel(15, 22) == (255, 255, 255))
        // The line's width is halved with the y scale, as the browser scales the SVG fragment: 2 mm, not 4.
        #expect(pixel(70, 32.5) == (0, 128, 0))
        #expect(pixel(70, 34) == (255, 255, 255))
    }

    @Test func opacityUsesSortedGraphicsStates() throws {
        let pdf = try Self.page(CardArt(svg: Data(Self.svg.utf8)))
        let text = PDFBytes.text(pdf)
        #expect(
            text.contains(
                "/ExtGState << /GS1 << /Type /ExtGState /ca 0.5 /CA 1 >> /GS2 << /Type /ExtGState /ca 1 /CA 0.5 >> >>"
            )
        )
        #expect(
            text.contains("/GS1 gs") && text.contains("/GS2 gs") && text.contains("f*\n") && text.contains("\n4 M\n")
        )
        #expect(try Self.page(CardArt(svg: Data(Self.svg.utf8))) == pdf, "the same art gives the same bytes")
        // Opaque art needs no graphics state at all.
        let opaque = try Self.page(CardArt(svg: Data("<svg viewBox=\"0 0 1 1\"><path d=\"M0 0H1V1Z\"/></svg>".utf8)))
        #expect(!PDFBytes.text(opaque).contains("/ExtGState"))
    }

    @Test func emptyArtDrawsNothing() throws {
        var canvas = PDFCanvas(trimWidth: 100, trimHeight: 100)
        canvas.draw(CardArt(viewBox: CardArtViewBox(x: 0, y: 0, width: 1, height: 1), shapes: []), in: canvas.bleedRect)
        canvas.draw(try CardArt(svg: Data(Self.svg.utf8)), in: CardRect(x: 0, y: 0, width: 0, height: 10))
        #expect(canvas.operations.isEmpty)
    }
}
