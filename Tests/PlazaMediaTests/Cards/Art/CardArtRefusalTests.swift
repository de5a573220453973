import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// Everything we refuse, each with the reason the designer reads, and what we quietly skip instead.
@Suite struct CardArtRefusalTests {
    typealias S = CardArtSamples
    static let square = "<path d=\"M0 0H10V10Z\"/>"

    static let refusals: [(String, CardArtError)] = [
        (S.document("<text x=\"1\" y=\"1\">Hello</text>"), .text),
        (S.document("<g><tspan>Hi</tspan></g>"), .text),
        (S.document("<image href=\"#x\" width=\"1\" height=\"1\"/>"), .image),
        (S.document("<use href=\"#shape\"/><defs><path id=\"shape\" d=\"M0 0H1V1Z\"/></defs>"), .reusedShapes),
        (S.document("<symbol id=\"s\">\(square)</symbol>"), .reusedShapes),
        (S.document("<defs><linearGradient id=\"g\"/></defs><path d=\"M0 0H1V1Z\" fill=\"url(#g)\"/>"), .gradient),
        (S.document("<path d=\"M0 0H1V1Z\" style=\"stroke: url('#p')\"/>"), .gradient),
        (S.document("<g filter=\"url(#blur)\">\(square)</g>"), .filter),
        (S.document("<path d=\"M0 0H1V1Z\" mask=\"url(#m)\"/>"), .mask),
        (S.document("<g style=\"clip-path:url(#c)\">\(square)</g>"), .clipPath),
        (S.document("<path d=\"M0 0H1\" stroke=\"red\" marker-end=\"url(#arrow)\"/>"), .markers),
        (S.document("<foreignObject><div/></foreignObject>"), .foreignObject),
        (S.document("<script>alert(1)</script>"), .script),
        (S.document("<defs><script>alert(1)</script></defs>"), .script),
        (S.document("<g onclick=\"alert(1)\">\(square)</g>"), .script),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\" onload=\"alert(1)\"/>", .script),
        (S.document("<style>path { fill: red }</style>"), .stylesheet),
        (S.document("<defs><style><![CDATA[.a{fill:red}]]></style></defs>"), .stylesheet),
        ("<?xml-stylesheet href=\"style.css\" type=\"text/css\"?>" + S.document(square), .stylesheet),
        (S.document("<a href=\"https://example.com\">\(square)</a>"), .externalReference("https://example.com")),
        (S.document("<defs><pattern id=\"p\"><image xlink:href=\"http://x/y.png\"/></pattern></defs>"), .image),
        (S.document("<image href=\"data:image/png;base64,iVBORw0KGgo=\" width=\"1\" height=\"1\"/>"), .image),
        (
            S.document("<defs><linearGradient id=\"g\" xlink:href=\"other.svg#g\"/></defs>"),
            .externalReference("other.svg#g")
        ),
        (
            S.document("<path d=\"M0 0H1V1Z\" fill=\"url(https://evil.example/a.svg#g)\"/>"),
            .externalReference("https://evil.example/a.svg#g")
        ),
        (S.document("<rect width=\"1\" height=\"1\"><animate attributeName=\"x\" to=\"5\"/></rect>"), .animation),
        (S.document("<svg viewBox=\"0 0 1 1\"/>"), .nestedSVG),
        (S.document("<switch>\(square)</switch>"), .unsupportedElement("switch")),
        ("<html><body/></html>", .notSVG(root: "html")),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\">\(square)</svg>", .missingSize),
        ("<svg width=\"100%\" height=\"100%\"/>", .missingSize),
        ("<svg viewBox=\"0 0 0 10\"/>", .invalidValue(attribute: "viewBox", value: "0 0 0 10")),
        (S.document("<path d=\"M0 0 L1e300 0\" transform=\"scale(1e300)\"/>"), .numberOutOfRange),
    ]

    @Test func everyRefusalHasItsReason() {
        for (svg, expected) in Self.refusals {
            #expect(S.error(svg) == expected, "\(svg)")
            #expect(expected.message.hasSuffix(".") && expected.message.contains(":"), "\(expected)")
        }
    }

    @Test func messagesTellTheDesignerWhatToDo() {
        #expect(
            CardArtError.text.message
                == "Text in the art is not supported: convert text to outlines (paths) in your design tool, or use a label."
        )
        #expect(
            CardArtError.gradient.message
                == "Gradients and patterns are not supported yet: use flat colours, or upload a PNG."
        )
        #expect(CardArtError.malformedXML(line: 3, reason: "x").description.contains("line 3"))
        // A hostile value is not echoed at full length.
        let long = CardArtError.externalReference(String(repeating: "a", count: 10_000)).message
        #expect(long.count < 200)
    }

    @Test func nonRenderingContentIsSkipped() throws {
        let svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
                 xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
                 xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
                 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" viewBox="0 0 10 10" width="10mm" height="10mm">
              <title>Card</title><desc>Front</desc>
              <sodipodi:namedview id="base" inkscape:zoom="1"><inkscape:grid/></sodipodi:namedview>
              <metadata><rdf:RDF><rdf:Description rdf:about="https://example.com/licence"/></rdf:RDF></metadata>
              <defs><linearGradient id="g"><stop offset="0"/></linearGradient><symbol id="s"><text>x</text></symbol>
                <clipPath id="c"><rect width="1" height="1"/></clipPath><style></style></defs>
              <style>  </style>
              <g inkscape:groupmode="layer" inkscape:label="Layer 1" id="layer1">
                <path sodipodi:nodetypes="ccc" d="M0 0H10V10Z" fill="url(#g) red" display="none"/>
                <path d="M0 0H5V5Z" fill="red" xlink:title="fine"/>
              </g>
            </svg>
            """
        let art = try CardArt(svg: Data(svg.utf8))
        #expect(art.shapes.count == 1 && art.shapes[0].fill == CardArtPaint(red: 255, green: 0, blue: 0))
    }

    @Test func nonUTF8IsRefused() {
        let utf16 = Data([0xFF, 0xFE]) + S.document(Self.square).data(using: .utf16LittleEndian)!
        #expect(throws: CardArtError.malformedXML(line: 1, reason: "the file is not UTF-8 text")) {
            try CardArt(svg: utf16)
        }
    }
}
