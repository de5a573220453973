import PlazaCore
import Testing

@testable import PlazaMedia

/// The XML tokenizer on its own: references, CDATA, skipped markup, quoting, well-formedness and the DOCTYPE refusal.
@Suite struct CardArtXMLTokenizerTests {
    static func events(_ xml: String) throws(CardArtError) -> [CardArtXMLTokenizer.Event] {
        var tokenizer = CardArtXMLTokenizer(Array(xml.utf8))
        var events: [CardArtXMLTokenizer.Event] = []
        while let event = try tokenizer.next() { events.append(event) }
        return events
    }

    static func failure(_ xml: String) -> CardArtError? {
        do {
            _ = try events(xml)
            return nil
        } catch {
            return error
        }
    }

    static func element(
        _ name: String,
        _ attributes: [(String, String)] = [],
        selfClosing: Bool = false
    ) -> CardArtXMLTokenizer.Event {
        .start(
            CardArtXMLElement(
                name: name,
                attributes: attributes.map { CardArtXMLAttribute(name: $0, value: $1) },
                selfClosing: selfClosing
            )
        )
    }

    @Test func predefinedEntitiesAndCharacterReferencesAreDecoded() throws {
        let events = try Self.events("<svg a=\"&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;\">x &amp; y &#233;</svg>")
        #expect(events == [Self.element("svg", [("a", "<>&\"'AB😀")]), .text("x & y é"), .end("svg")])
    }

    @Test func cdataIsTextWithoutDecoding() throws {
        let events = try Self.events("<svg><![CDATA[<not a tag> &amp; ]]></svg>")
        #expect(events == [Self.element("svg"), .text("<not a tag> &amp; "), .end("svg")])
    }

    @Test func declarationCommentsInstructionsAndDoctypeAreSkipped() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <!-- Created with a design tool -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
            <svg><!-- <g> inside a comment --><?pi data?></svg>
            <!-- trailing -->
            """
        #expect(try Self.events(xml) == [Self.element("svg"), .end("svg")])
    }

    @Test func greaterThanAndOtherQuotesInsideValues() throws {
        let events = try Self.events("<svg a=\"1 > 0\" b='say \"hi\"' c = \"tab\there\"/>")
        #expect(
            events == [
                Self.element("svg", [("a", "1 > 0"), ("b", "say \"hi\""), ("c", "tab here")], selfClosing: true),
                .end("svg"),
            ]
        )
    }

    @Test func selfClosingTagsGiveStartAndEnd() throws {
        let events = try Self.events("<svg><g><path d=\"M0 0\"/></g></svg>")
        #expect(
            events == [
                Self.element("svg"), Self.element("g"), Self.element("path", [("d", "M0 0")], selfClosing: true),
                .end("path"), .end("g"),
                .end("svg"),
            ]
        )
    }

    @Test func namespacePrefixesAreKeptInNames() throws {
        let events = try Self.events(
            "<svg xmlns:inkscape=\"http://www.inkscape.org/namespaces/inkscape\" inkscape:label=\"Layer 1\"/>"
        )
        guard case .start(let element) = events.first else { throw CardArtError.notSVG(root: "") }
        #expect(element.attributes.map(\.name) == ["xmlns:inkscape", "inkscape:label"])
        #expect(
            CardArtXMLElement.local("inkscape:label") == "label"
                && CardArtXMLElement.prefix("inkscape:label") == "inkscape"
        )
    }

    @Test func internalSubsetIsRefused() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <svg>&lol2;</svg>
            """
        #expect(Self.failure(laughs) == .entityDeclarations)
        #expect(Self.failure("<!DOCTYPE svg SYSTEM \"a[b].dtd\"><svg/>") == nil)
    }

    @Test func malformedDocumentsReportTheLine() {
        let cases: [(String, Int, String)] = [
            ("<svg>\n<g>\n</svg>", 3, "</svg> closes <g>"),
            ("<svg a=1/>", 1, "the value of a is not quoted"),
            ("<svg a=\"1\" a=\"2\"/>", 1, "attribute a appears twice on <svg>"),
            ("<svg a=\"x<y\"/>", 1, "'<' in the value of a"),
            ("<svg>\n&nbsp;</svg>", 2, "unknown or invalid reference &nbsp;"),
            ("<svg>&#0;</svg>", 1, "unknown or invalid reference &#0;"),
            ("<svg>&#xD800;</svg>", 1, "unknown or invalid reference &#xD800;"),
            ("<svg>a & b</svg>", 1, "'&' that starts no reference"),
            ("<svg><!-- open </svg>", 1, "a comment is never closed"),
            ("<svg/><svg/>", 1, "a second root element"),
            ("<svg/>text", 1, "text outside the root element"),
            ("<svg><g>", 1, "<g> is never closed"),
            ("", 1, "no root element"),
            ("<svg a=\"1\"b=\"2\"/>", 1, "attributes of <svg> must be separated by spaces"),
            ("<svg", 1, "<svg> is cut off"),
        ]
        for (xml, line, reason) in cases {
            #expect(Self.failure(xml) == .malformedXML(line: line, reason: reason), "\(xml)")
        }
    }

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        let depth = CardArt.maximumNesting
        #expect(throws: Never.self) {
            try Self.events(String(repeating: "<g>", count: depth) + String(repeating: "</g>", count: depth))
        }
        let deeper = String(repeating: "<g>", count: depth + 1) + String(repeating: "</g>", count: depth + 1)
        #expect(Self.failure(deeper) == .nestedTooDeeply)
        // A hostile file of a million open tags stops at the limit instead of growing a stack.
        #expect(Self.failure(String(repeating: "<g>", count: 1_000_000)) == .nestedTooDeeply)
    }
}
