import Foundation
import PlazaCore

/// The presentation state in effect for an element: what it inherits from its ancestors plus its own attributes and
/// `style` declarations (which win over attributes, as in CSS). Starts from SVG's defaults: fill black, no stroke,
/// stroke width 1, nonzero fill rule, everything opaque.
struct CardArtStyle {
    var fill = CardArtColor.black
    var stroke = CardArtColor.none
    var strokeWidth = 1.0
    var fillOpacity = 1.0
    var strokeOpacity = 1.0
    var fillRule = CardArtFillRule.nonzero
    var visible = true
    /// The product of this element's and every ancestor's `opacity`. Folding group opacity into each shape is exact for
    /// shapes that do not overlap inside the group; overlapping ones show through each other slightly more than a true
    /// group composite would.
    var opacity = 1.0
    /// From this element's coordinates to the viewBox.
    var transform = CardArtTransform.identity

    /// The style for `element` and its content. Returns `nil` for `display: none`, which hides the whole subtree
    /// (unlike `visibility: hidden`, which children may override).
    func applying(_ element: CardArtXMLElement) throws(CardArtError) -> CardArtStyle? {
        var next = self
        if let transform = element["transform"] {
            next.transform = self.transform * (try CardArtTransform.parse(transform))
        }
        var declarations = element.attributes.filter { Self.properties.contains($0.name) }.map { ($0.name, $0.value) }
        if let style = element["style"] { declarations += Self.declarations(style) }
        // A hidden subtree is skipped before its values are judged: what never renders cannot be refused for its paint.
        if let display = declarations.last(where: { $0.0 == "display" }),
            display.1.trimmingCharacters(in: .whitespaces).lowercased() == "none"
        {
            return nil
        }
        var ownOpacity = 1.0
        for (property, rawValue) in declarations {
            let value = rawValue.trimmingCharacters(in: .whitespacesAndNewlines)
            if value == "inherit" { continue }
            switch property {
            case "fill": next.fill = try Self.paint(value)
            case "stroke": next.stroke = try Self.paint(value)
            case "stroke-width":
                guard let width = try CardArtLength.parse(value), width >= 0 else {
                    throw .invalidValue(attribute: property, value: value)
                }
                next.strokeWidth = width
            case "opacity": ownOpacity = try Self.fraction(property, value)
            case "fill-opacity": next.fillOpacity = try Self.fraction(property, value)
            case "stroke-opacity": next.strokeOpacity = try Self.fraction(property, value)
            case "fill-rule":
                guard let rule = CardArtFillRule(rawValue: value.lowercased()) else {
                    throw .invalidValue(attribute: property, value: value)
                }
                next.fillRule = rule
            case "display": break
            case "visibility": next.visible = value.lowercased() == "visible"
            case "filter": if value != "none" { throw .filter }
            case "mask": if value != "none" { throw .mask }
            case "clip-path": if value != "none" { throw .clipPath }
            default: if value != "none" { throw .markers }
            }
        }
        // Opacity is not inherited: it multiplies down the tree, applied in the end to each shape's paint.
        next.opacity = opacity * ownOpacity
        return next
    }

    /// The properties we read, as attributes or in `style`; anything else (fonts, dash arrays, Inkscape's own) is ignored.
    private static let properties: Set<String> = [
        "fill", "stroke", "stroke-width", "opacity", "fill-opacity", "stroke-opacity", "fill-rule", "display",
        "visibility",
        "filter", "mask", "clip-path", "marker", "marker-start", "marker-mid", "marker-end",
    ]

    /// `a: b; c: d` as pairs, dropping `!important` (there is no cascade to win here) and unknown properties.
    private static func declarations(_ style: String) -> [(String, String)] {
        style.split(separator: ";").compactMap { declaration in
            guard let colon = declaration.firstIndex(of: ":") else { return nil }
            let name = declaration[..<colon].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            var value = declaration[declaration.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if value.lowercased().hasSuffix("!important") { value = String(value.dropLast(10)) }
            return properties.contains(name) ? (name, value) : nil
        }
    }

    private static func paint(_ value: String) throws(CardArtError) -> CardArtColor {
        // Local references are gradients or patterns; anything else was already refused as external.
        if value.lowercased().contains("url(") { throw .gradient }
        return try CardArtColor.parse(value)
    }

    /// A number or a percentage, clamped to 0...1 as CSS does.
    private static func fraction(_ property: String, _ value: String) throws(CardArtError) -> Double {
        let percent = value.hasSuffix("%")
        guard let number = Double(percent ? String(value.dropLast()) : value), number.isFinite else {
            throw .invalidValue(attribute: property, value: value)
        }
        return min(max(percent ? number / 100 : number, 0), 1)
    }
}
