import Foundation
import PlazaCore
import Testing

@testable import PlazaMedia

/// The clean SVG: exact text for a small sample, the round trip back to the same model, and determinism.
@Suite struct CardArtSVGTests {
    typealias S = CardArtSamples

    static let rich = S.document(
        """
        <g transform="translate(5 5) rotate(10, 50, 50)" fill="#3366cc" stroke="rgb(10%, 20%, 30%)" stroke-width="1.25">
          <rect x="10" y="10" width="30" height="20" rx="4" opacity="0.7"/>
          <circle cx="70" cy="30" r="12.345678" fill-opacity=".5" stroke="none"/>
          <ellipse cx="50" cy="70" rx="20" ry="8" style="fill:olive;fill-rule:evenodd"/>
          <path d="M10 90 q10 -20 20 0 t20 0 a10 5 30 1 0 20 0 s10 10 20 0 z m5 0 h10 v-3 z" stroke-opacity="0.3"/>
          <polyline points="1,2 3,4 5,6" fill="none"/>
          <polygon points="90 90 95 99 85 99" transform="skewX(15)"/>
          <line x1="0" y1="0" x2="100" y2="100" stroke="maroon"/>
        </g>
        """,
        viewBox: "-10 -10 120.123456 120"
    )

    @Test func exactOutputForASmallSample() throws {
        let art = try S.art(
            "<path d=\"M10 10 h10 v10 z\" fill=\"red\" fill-opacity=\"0.5\" fill-rule=\"evenodd\" stroke=\"#00ff00\" stroke-width=\"0.333333\"/>",
            viewBox: "0 0 100 50"
        )
        #expect(
            art.svgDocument
                == "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 50\" preserveAspectRatio=\"none\">"
                + "<path d=\"M10 10 L20 10 L20 20 Z\" fill=\"#ff0000\" fill-opacity=\"0.5\" fill-rule=\"evenodd\" stroke=\"#00ff00\""
                + " stroke-width=\"0.3333\"/></svg>"
        )
        #expect(
            art.svgFragment(in: CardRect(x: -3, y: -3, width: 216, height: 110))
                == "<g transform=\"matrix(2.16 0 0 2.2 -3 -3)\"><path d=\"M10 10 L20 10 L20 20 Z\" fill=\"#ff0000\" fill-opacity=\"0.5\""
                + " fill-rule=\"evenodd\" stroke=\"#00ff00\" stroke-width=\"0.3333\"/></g>"
        )
    }

    @Test func parsingTheCleanSVGGivesTheSameModel() throws {
        let art = try CardArt(svg: Data(Self.rich.utf8))
        #expect(art.shapes.count == 7)
        let again = try CardArt(svg: Data(art.svgDocument.utf8))
        #expect(again == art)
        #expect(again.svgDocument == art.svgDocument)
    }

    @Test func numbersHaveAtMostFourDecimals() throws {
        let art = try CardArt(svg: Data(Self.rich.utf8))
        let numbers = art.svgDocument.split(whereSeparator: { " \"()".contains($0) }).filter {
            $0.first?.isNumber == true || $0.first == "-"
        }
        #expect(!numbers.isEmpty)
        for number in numbers {
            let fraction = number.split(separator: ".").dropFirst().first ?? ""
            #expect(fraction.count <= 4 && !number.contains("e"), "\(number)")
        }
        #expect(art.viewBox.width == 120.1235)
    }

    @Test func outputIsDeterministic() throws {
        let first = try CardArt(svg: Data(Self.rich.utf8))
        let second = try CardArt(svg: Data(Self.rich.utf8))
        #expect(first == second && first.svgDocument == second.svgDocument)
        let rect = CardRect(x: 0, y: 0, width: 148, height: 105)
        #expect(first.svgFragment(in: rect) == second.svgFragment(in: rect))
    }

    @Test func cleanOutputCarriesNothingButShapes() throws {
        let art = try S.art(
            "<!-- x --><title>&lt;script&gt;</title><path d=\"M0 0H1V1Z\" id=\"a\" class=\"c\" data-x=\"&quot;&gt;\" inkscape:label=\"L\"/>"
        )
        #expect(art.svgDocument.hasSuffix("<path d=\"M0 0 L1 0 L1 1 Z\" fill=\"#000000\"/></svg>"))
        #expect(!art.svgDocument.contains("script") && !art.svgDocument.contains("id="))
    }
}
