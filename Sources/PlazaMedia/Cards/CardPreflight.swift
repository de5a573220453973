import Foundation
import PlazaCore

/// Lays out every label of a design and checks it for print: the one place both the preview and the print file, and
/// the order's "orderable", get their numbers from.
public enum CardPreflight {
    /// Each label of `values` set in its font (`fonts` by id; a missing one falls back to the first given).
    public static func layouts(
        _ values: [CardLabelValue],
        spec: CardTemplateSpec,
        fonts: [String: CardFont]
    ) -> [String: CardTextLayout] {
        var result: [String: CardTextLayout] = [:]
        for value in values {
            guard let label = spec.labels.first(where: { $0.id == value.id }),
                let font = fonts[value.font] ?? fonts[label.font]
                    ?? CardRules.fontIDs.lazy.compactMap({ fonts[$0] }).first
            else { continue }
            result[value.id] = CardTypesetter.layout(
                CardTextLabel(
                    text: value.text,
                    font: font,
                    size: value.size,
                    box: CardRect(x: value.x, y: value.y, width: label.width, height: label.height),
                    alignment: label.align,
                    maxLines: label.maxLines
                )
            )
        }
        return result
    }

    /// What stands between the design and a good print, label by label in the template's order.
    public static func findings(
        _ values: [CardLabelValue],
        spec: CardTemplateSpec,
        layouts: [String: CardTextLayout]
    ) -> [CardFinding] {
        var findings: [CardFinding] = []
        let trim = CardRect(x: 0, y: 0, width: spec.trim.widthMm, height: spec.trim.heightMm)
        let margin = CardRules.safeMarginMm
        for value in values {
            guard let label = spec.labels.first(where: { $0.id == value.id }) else { continue }
            let name = "“\(label.title)”"
            let add = { (code: CardFindingCode, severity: CardFindingSeverity, message: String) in
                findings.append(
                    CardFinding(code: code, severity: severity, page: value.page, labelId: value.id, message: message)
                )
            }
            let empty = value.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            if label.required, empty {
                add(.requiredLabelEmpty, .warning, "The label \(name) is empty: the card may look unfinished.")
            }
            guard let layout = layouts[value.id] else { continue }
            if layout.overflow {
                let advice =
                    switch (
                        label.editable.contains(.text), label.editable.contains(.size) && label.minSize < label.maxSize
                    ) {
                    case (true, true): "shorten it, or make the type smaller"
                    case (true, false): "shorten it"
                    case (false, true): "make the type smaller"
                    case (false, false): "this template's text is longer than its box"
                    }
                add(.textOverflow, .error, "The text of \(name) does not fit: \(advice).")
            }
            let inks = layout.lines.filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }.map { line in
                CardRect(
                    x: line.x,
                    y: line.baseline - layout.ascent,
                    width: line.width,
                    height: layout.ascent + layout.descent
                )
            }
            if inks.contains(where: { !contains(trim, $0) }) {
                add(
                    .textInBleed,
                    .error,
                    "The text of \(name) runs off the card's edge, where the printer cuts: move it inwards."
                )
            } else if inks.contains(where: { !contains(inset(trim, by: margin), $0) }) {
                add(
                    .outsideSafeArea,
                    .warning,
                    "The text of \(name) is within \(Int(margin)) mm of the edge; the cut may graze it. Move it a little inwards."
                )
            }
            if value.size < CardRules.smallestReadablePt, !empty {
                add(
                    .fontTooSmall,
                    .warning,
                    "\(name) is set below \(Int(CardRules.smallestReadablePt)) pt, hard to read in print."
                )
            }
            if !layout.missingScalars.isEmpty {
                let characters = layout.missingScalars.map { String(Character($0)) }.joined(separator: " ")
                add(
                    .missingGlyphs,
                    .warning,
                    "This font has no \(characters): they would print as empty boxes. Pick another font."
                )
            }
        }
        return findings
    }

    /// No finding of severity `error`.
    public static func orderable(_ findings: [CardFinding]) -> Bool {
        !findings.contains { $0.severity == .error }
    }

    static func contains(_ outer: CardRect, _ inner: CardRect) -> Bool {
        let tolerance = 1e-6
        return inner.x >= outer.x - tolerance && inner.y >= outer.y - tolerance && inner.maxX <= outer.maxX + tolerance
            && inner.maxY <= outer.maxY + tolerance
    }

    static func inset(_ rect: CardRect, by margin: Double) -> CardRect {
        CardRect(
            x: rect.x + margin,
            y: rect.y + margin,
            width: rect.width - 2 * margin,
            height: rect.height - 2 * margin
        )
    }
}
