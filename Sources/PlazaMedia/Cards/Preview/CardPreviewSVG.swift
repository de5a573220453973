import Foundation
import PlazaCore

/// A page of a card as SVG, drawn from the same layout as the print file: every glyph sits at the layout's x on its
/// line's baseline (the browser never breaks lines, kerns or ligates), in the very font files the PDF embeds. Units are
/// millimetres; the view box is the page with its bleed, so the trim starts at (0, 0).
public enum CardPreviewSVG {
    /// What to draw on one page.
    public struct Page: Sendable {
        public var trim: CardTrim
        /// The page's art as an SVG fragment already placed over the bleed rectangle (nil: plain paper).
        public var art: String?
        /// Each label's layout and colour, in drawing order.
        public var labels: [(id: String, layout: CardTextLayout, colour: String)]
        /// Dashed trim and safe-area lines and a shaded bleed, for the editor; never in what is approved.
        public var guides: Bool
        /// The fonts by id, for the outlines of glyphs text cannot show (ligatures, contextual forms).
        public var fonts: [String: TrueTypeFont]

        public init(
            trim: CardTrim,
            art: String?,
            labels: [(id: String, layout: CardTextLayout, colour: String)],
            guides: Bool = false,
            fonts: [String: TrueTypeFont] = [:]
        ) {
            self.trim = trim
            self.art = art
            self.labels = labels
            self.guides = guides
            self.fonts = fonts
        }
    }

    /// A standalone SVG document; `fontURL` gives the address of a font file by id (`/v1/cards/fonts/serif`).
    /// `inline` leaves out the size and the `<style>` (a page that shows it inline loads the fonts and the text rules
    /// from its own style sheet: its Content-Security-Policy allows no inline style).
    /// How an inline preview is named for a screen reader, in the page's language: `reading` holds `{words}`.
    public struct Naming: Sendable {
        public var reading: String
        public var wordless: String
        public init(reading: String, wordless: String) {
            self.reading = reading
            self.wordless = wordless
        }
        public static let english = Naming(reading: "A card reading: {words}", wordless: "A card without words")
    }

    public static func document(
        _ page: Page,
        fontURL: (String) -> String,
        inline: Bool = false,
        naming: Naming = .english
    ) -> String {
        let bleed = CardRules.bleedMm
        let width = page.trim.widthMm + 2 * bleed
        let height = page.trim.heightMm + 2 * bleed
        let viewBox = "\(number(-bleed)) \(number(-bleed)) \(number(width)) \(number(height))"
        var svg =
            inline
            ? "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(viewBox)\" class=\"card-svg\" role=\"img\" "
                + "aria-label=\"\(escape(accessibleName(page, naming: naming)))\">"
            : "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(viewBox)\" width=\"\(number(width))mm\" height=\"\(number(height))mm\">"
        if !inline {
            svg += "<style>"
            for font in Set(page.labels.map(\.layout.fontID)).sorted() {
                svg +=
                    "@font-face{font-family:\"plaza-\(font)\";src:url(\"\(escape(fontURL(font)))\") format(\"truetype\")}"
            }
            svg +=
                "text{font-kerning:none;font-variant-ligatures:none;font-feature-settings:\"kern\" 0,\"liga\" 0,\"clig\" 0;white-space:pre}</style>"
        }
        svg +=
            "<rect x=\"\(number(-bleed))\" y=\"\(number(-bleed))\" width=\"\(number(width))\" height=\"\(number(height))\" fill=\"#ffffff\"/>"
        if let art = page.art { svg += art }
        for label in page.labels {
            svg += text(label.id, label.layout, colour: label.colour, font: page.fonts[label.layout.fontID])
        }
        if page.guides { svg += guides(page.trim) }
        return svg + "</svg>"
    }

    /// What a screen reader says for an inline preview: the card's words, in drawing order.
    static func accessibleName(_ page: Page, naming: Naming = .english) -> String {
        let words = page.labels.map { $0.layout.lines.map(\.text).joined(separator: " ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return words.isEmpty
            ? naming.wordless : naming.reading.replacingOccurrences(of: "{words}", with: words.joined(separator: " / "))
    }

    /// One label: a group holding a `<text>` whose lines are `<tspan>`s with one x per character and the line's baseline
    /// as y, and, for each glyph the font's character map cannot reach (a ligature, a contextual form), its outline as a
    /// `<path>` at the same origin, since a browser setting the characters would draw other glyphs. Without the font
    /// (or with an outline that does not parse) such a glyph's characters are set as text at its origin instead.
    static func text(_ id: String, _ layout: CardTextLayout, colour: String, font: TrueTypeFont? = nil) -> String {
        let size = CardUnits.millimetres(fromPoints: layout.size)
        var svg = "<g data-label=\"\(escape(id))\" fill=\"\(escape(colour))\">"
        svg += "<text font-family=\"plaza-\(escape(layout.fontID))\" font-size=\"\(number(size))\">"
        var paths = ""
        for line in layout.lines where !line.glyphs.isEmpty {
            var xs: [String] = []
            var characters = ""
            for glyph in line.glyphs {
                if glyph.isSubstituted, let font,
                    let d = try? font.outline(of: glyph.id).svgPathData(number: number)
                {
                    if !d.isEmpty {
                        let scale = factor(size / Double(font.unitsPerEm))
                        paths +=
                            "<path transform=\"matrix(\(scale) 0 0 -\(scale) \(number(glyph.x)) \(number(line.baseline)))\" d=\"\(d)\"/>"
                    }
                    continue
                }
                // Every character of a glyph drawn as text starts at the glyph's origin (one, outside ligatures).
                for scalar in glyph.scalars {
                    xs.append(number(glyph.x))
                    characters.unicodeScalars.append(scalar)
                }
            }
            guard !xs.isEmpty else { continue }
            svg +=
                "<tspan x=\"\(xs.joined(separator: " "))\" y=\"\(number(line.baseline))\">\(escape(characters))</tspan>"
        }
        return svg + "</text>" + paths + "</g>"
    }

    static func guides(_ trim: CardTrim) -> String {
        let bleed = CardRules.bleedMm
        let margin = CardRules.safeMarginMm
        let outer =
            "M\(number(-bleed)) \(number(-bleed))h\(number(trim.widthMm + 2 * bleed))v\(number(trim.heightMm + 2 * bleed))h\(number(-(trim.widthMm + 2 * bleed)))z"
        let inner = "M0 0v\(number(trim.heightMm))h\(number(trim.widthMm))v\(number(-trim.heightMm))z"
        return
            "<g data-guides=\"\" pointer-events=\"none\"><path d=\"\(outer)\(inner)\" fill=\"#d9480f\" fill-opacity=\".12\" fill-rule=\"evenodd\"/>"
            + "<rect x=\"0\" y=\"0\" width=\"\(number(trim.widthMm))\" height=\"\(number(trim.heightMm))\" fill=\"none\" stroke=\"#d9480f\" stroke-width=\".3\"/>"
            + "<rect x=\"\(number(margin))\" y=\"\(number(margin))\" width=\"\(number(trim.widthMm - 2 * margin))\" "
            + "height=\"\(number(trim.heightMm - 2 * margin))\" fill=\"none\" stroke=\"#1f6feb\" stroke-width=\".25\" stroke-dasharray=\"1.5 1\"/></g>"
    }

    /// At most 4 decimals, no exponent, no "-0": the same numbers give the same bytes. Formatted from the integer count
    /// of ten-thousandths (a glyph outline writes hundreds of numbers; `String(format:)` was most of a preview's time).
    public static func number(_ value: Double) -> String {
        let scaled = (value * 10_000).rounded()
        guard scaled.isFinite, scaled.magnitude < 1e15 else {
            return scaled.isFinite ? String(format: "%.0f", value) : "0"
        }
        let units = Int(scaled)
        if units == 0 { return "0" }
        let magnitude = units.magnitude
        var text = units < 0 ? "-" : ""
        text += String(magnitude / 10_000)
        var fraction = magnitude % 10_000
        guard fraction != 0 else { return text }
        var digits = 4
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let decimals = String(fraction)
        text += "." + String(repeating: "0", count: digits - decimals.count) + decimals
        return text
    }

    /// A scale factor to 9 significant digits: font units to millimetres is about 0.004, where `number`'s 4 decimals
    /// would make a glyph a few per cent too small or large.
    static func factor(_ value: Double) -> String {
        String(format: "%.9g", value)
    }

    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
