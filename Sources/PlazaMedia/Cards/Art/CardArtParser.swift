import Foundation
import PlazaCore

/// Turns an uploaded SVG into a `CardArt`: walks the tokenizer's events keeping a frame per open element, refuses what
/// we cannot draw faithfully or safely (with the reason for the designer), skips what does not render (`defs`,
/// metadata, editor namespaces) and flattens every drawable element into a shape in viewBox coordinates.
struct CardArtParser {
    /// How an open element's content is treated.
    private enum Mode {
        case render
        /// Not drawn (definitions, metadata, hidden, children of shapes), but still checked for dangerous content.
        case ignored
        /// Inside `<style>`: any CSS text is refused.
        case stylesheet
    }

    private struct Frame {
        var mode: Mode
        var style: CardArtStyle
    }

    private var frames: [Frame] = []
    private var shapes: [CardArtShape] = []
    private var segments = 0
    private var viewBox = CardArtViewBox(x: 0, y: 0, width: 0, height: 0)

    static func parse(_ data: Data) throws(CardArtError) -> CardArt {
        guard data.count <= CardArt.maximumBytes else { throw .tooLarge(bytes: data.count) }
        let bytes = [UInt8](data)
        // Refuse rather than guess: UTF-16 and Latin-1 files would decode to garbage names and values.
        let invalid = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
        guard !invalid else { throw .malformedXML(line: 1, reason: "the file is not UTF-8 text") }
        var tokenizer = CardArtXMLTokenizer(bytes)
        var parser = CardArtParser()
        while let event = try tokenizer.next() {
            switch event {
            case .start(let element): try parser.start(element)
            case .end: parser.frames.removeLast()
            case .text(let text):
                if parser.frames.last?.mode == .stylesheet, !text.allSatisfy(\.isWhitespace) { throw .stylesheet }
            }
        }
        return CardArt(viewBox: parser.viewBox, shapes: parser.shapes)
    }

    /// Pushes exactly one frame for `element` (or throws).
    private mutating func start(_ element: CardArtXMLElement) throws(CardArtError) {
        let name = String(element.localName)
        // Before the attribute checks, so a linked or data: image is reported as an image rather than as a reference.
        if name == "image", element.prefix == nil || element.prefix == "svg" { throw .image }
        try Self.checkAttributes(element)
        let prefix = element.prefix
        guard let parent = frames.last else {
            guard name == "svg", prefix == nil || prefix == "svg" else { throw .notSVG(root: element.name) }
            viewBox = try Self.viewBox(element)
            let style = try CardArtStyle().applying(element)
            frames.append(Frame(mode: style == nil ? .ignored : .render, style: style ?? CardArtStyle()))
            return
        }
        // Editors' own elements (sodipodi:namedview, inkscape:*, rdf:RDF) never render.
        if let prefix, prefix != "svg" { return frames.append(Frame(mode: .ignored, style: parent.style)) }
        // Dangerous or animated content is refused even where it would not render, so nothing hides in defs.
        switch name {
        case "script": throw .script
        case "foreignObject": throw .foreignObject
        case "animate", "animateMotion", "animateTransform", "animateColor", "set", "mpath", "discard": throw .animation
        case "style": return frames.append(Frame(mode: .stylesheet, style: parent.style))
        default: break
        }
        guard parent.mode == .render else { return frames.append(Frame(mode: .ignored, style: parent.style)) }
        switch name {
        case "g":
            let style = try parent.style.applying(element)
            frames.append(Frame(mode: style == nil ? .ignored : .render, style: style ?? parent.style))
        case "path", "rect", "circle", "ellipse", "line", "polyline", "polygon":
            try draw(element, name, parent.style)
            frames.append(Frame(mode: .ignored, style: parent.style))
        case "defs", "title", "desc", "metadata", "linearGradient", "radialGradient", "pattern", "clipPath", "mask",
            "marker", "filter":
            frames.append(Frame(mode: .ignored, style: parent.style))
        case "svg": throw .nestedSVG
        case "text", "tspan", "textPath": throw .text
        case "use", "symbol": throw .reusedShapes
        default: throw .unsupportedElement(name)
        }
    }

    private mutating func draw(
        _ element: CardArtXMLElement,
        _ name: String,
        _ inherited: CardArtStyle
    ) throws(CardArtError) {
        guard let style = try inherited.applying(element) else { return }
        let local: [CardArtPath.Element]?
        switch name {
        case "path": local = try CardArtPathData.parse(element["d"] ?? "", budget: CardArt.maximumSegments - segments)
        case "rect": local = try CardArtBasicShapes.rect(element)
        case "circle": local = try CardArtBasicShapes.circle(element)
        case "ellipse": local = try CardArtBasicShapes.ellipse(element)
        case "line": local = try CardArtBasicShapes.line(element)
        default: local = try CardArtBasicShapes.poly(element, closed: name == "polygon")
        }
        guard let local, style.visible else { return }
        segments += local.count
        guard segments <= CardArt.maximumSegments else { throw .tooManySegments }
        let path = CardArtPath(local).applying(style.transform)
        guard path.draws else { return }
        guard path.isWithinLimit else { throw .numberOutOfRange }
        var fill: CardArtPaint?
        // A line has no inside to fill, whatever its fill says.
        if name != "line", case .rgb(let red, let green, let blue) = style.fill {
            fill = CardArtPaint(
                red: red,
                green: green,
                blue: blue,
                opacity: CardArtNumber.quantize(style.fillOpacity * style.opacity)
            )
        }
        var stroke: CardArtPaint?
        let width = CardArtNumber.quantize(style.strokeWidth * style.transform.meanScale)
        guard width <= CardArtNumber.limit else { throw .numberOutOfRange }
        if width > 0, case .rgb(let red, let green, let blue) = style.stroke {
            stroke = CardArtPaint(
                red: red,
                green: green,
                blue: blue,
                opacity: CardArtNumber.quantize(style.strokeOpacity * style.opacity)
            )
        }
        guard fill != nil || stroke != nil else { return }
        shapes.append(
            CardArtShape(
                path: path,
                fill: fill,
                fillRule: style.fillRule,
                stroke: stroke,
                strokeWidth: stroke == nil ? 0 : width
            )
        )
    }

    /// Event handlers, links out of the file and `url(...)` references out of the file, on any element.
    private static func checkAttributes(_ element: CardArtXMLElement) throws(CardArtError) {
        for attribute in element.attributes {
            let local = CardArtXMLElement.local(attribute.name).lowercased()
            let prefix = CardArtXMLElement.prefix(attribute.name)
            if prefix == nil, local.hasPrefix("on") { throw .script }
            let value = attribute.value.trimmingCharacters(in: .whitespacesAndNewlines)
            if local == "href", prefix == nil || prefix == "xlink", !value.hasPrefix("#") {
                throw .externalReference(value)
            }
            var rest = value.lowercased()[...]
            while let range = rest.range(of: "url(") {
                let target = rest[range.upperBound...].drop { $0 == " " || $0 == "'" || $0 == "\"" }
                guard target.hasPrefix("#") else { throw .externalReference(String(target.prefix { $0 != ")" })) }
                rest = rest[range.upperBound...]
            }
        }
    }

    /// From `viewBox`, or else from an absolute `width` and `height` (the user space is then CSS pixels from 0, 0).
    private static func viewBox(_ element: CardArtXMLElement) throws(CardArtError) -> CardArtViewBox {
        if let text = element["viewBox"] {
            guard let values = try CardArtScanner.numbers(in: text), values.count == 4, values[2] > 0, values[3] > 0
            else {
                throw .invalidValue(attribute: "viewBox", value: text)
            }
            guard values.allSatisfy({ abs($0) <= CardArtNumber.limit }) else { throw .numberOutOfRange }
            let box = values.map(CardArtNumber.quantize)
            guard box[2] > 0, box[3] > 0 else { throw .invalidValue(attribute: "viewBox", value: text) }
            return CardArtViewBox(x: box[0], y: box[1], width: box[2], height: box[3])
        }
        guard let widthText = element["width"], let heightText = element["height"],
            let width = try CardArtLength.parse(widthText),
            let height = try CardArtLength.parse(heightText), width > 0, height > 0
        else { throw .missingSize }
        guard width <= CardArtNumber.limit, height <= CardArtNumber.limit else { throw .numberOutOfRange }
        guard CardArtNumber.quantize(width) > 0, CardArtNumber.quantize(height) > 0 else { throw .missingSize }
        return CardArtViewBox(x: 0, y: 0, width: CardArtNumber.quantize(width), height: CardArtNumber.quantize(height))
    }
}
