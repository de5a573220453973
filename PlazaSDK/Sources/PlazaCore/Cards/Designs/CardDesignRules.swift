import Foundation

/// How a shopper's changes apply to a template's labels: only what each label lets them change, within its bounds.
public enum CardDesignRules {
    /// The labels as the template sets them.
    public static func defaults(_ spec: CardTemplateSpec) -> [CardLabelValue] {
        spec.labels.map {
            CardLabelValue(
                id: $0.id,
                page: $0.page,
                text: $0.text,
                font: $0.font,
                size: $0.size,
                colour: $0.colour,
                x: $0.x,
                y: $0.y
            )
        }
    }

    /// `current` with `edits` applied, or every field at fault (`labels[2].font`), all at once.
    public static func apply(
        _ edits: [CardLabelEdit],
        to current: [CardLabelValue],
        spec: CardTemplateSpec
    ) throws(ValidationFailure)
        -> [CardLabelValue]
    {
        var values = current
        var validator = Validator()
        for (index, edit) in edits.enumerated() {
            let field = { (name: String) in "labels[\(index)].\(name)" }
            guard let label = spec.labels.first(where: { $0.id == edit.id }),
                let at = values.firstIndex(where: { $0.id == edit.id })
            else {
                validator.check(false, field("id"), "This card has no label “\(edit.id)”.")
                continue
            }
            let may = { (what: CardLabelEditable) in label.editable.contains(what) }
            // Sending a value back unchanged is no edit, even of what the label fixes.
            if let text = edit.text?.replacingOccurrences(of: "\r\n", with: "\n"), text != values[at].text {
                if may(.text) {
                    validator.check(
                        CardRules.labelTextLength.contains(text.count),
                        field("text"),
                        "Keep it under 500 characters."
                    )
                    values[at].text = text
                } else {
                    validator.check(false, field("text"), "This text is part of the design and stays as it is.")
                }
            }
            if let font = edit.font, font != values[at].font {
                validator.check(may(.font), field("font"), "This label's font is part of the design.")
                validator.check(
                    !may(.font) || label.fonts.contains(font),
                    field("font"),
                    "Pick one of: \(label.fonts.map { CardRules.fontNames[$0] ?? $0 }.joined(separator: ", "))."
                )
                if may(.font), label.fonts.contains(font) { values[at].font = font }
            }
            if let size = edit.size, size != values[at].size {
                let fits = size.isFinite && size >= label.minSize && size <= label.maxSize
                validator.check(may(.size), field("size"), "This label's size is part of the design.")
                validator.check(
                    !may(.size) || fits,
                    field("size"),
                    "Pick a size from \(points(label.minSize)) to \(points(label.maxSize)) pt."
                )
                if may(.size), fits { values[at].size = size }
            }
            if let raw = edit.colour, CardRules.colour(raw) != values[at].colour {
                let colour = CardRules.colour(raw)
                let allowed = colour.map { label.colours.contains($0) } ?? false
                validator.check(may(.colour), field("colour"), "This label's colour is part of the design.")
                validator.check(!may(.colour) || allowed, field("colour"), "Pick one of the colours this label offers.")
                if may(.colour), allowed, let colour { values[at].colour = colour }
            }
            if (edit.x ?? values[at].x) != values[at].x || (edit.y ?? values[at].y) != values[at].y {
                let x = edit.x ?? values[at].x
                let y = edit.y ?? values[at].y
                let inside =
                    x.isFinite && y.isFinite && x >= 0 && y >= 0 && x + label.width <= spec.trim.widthMm + 1e-9
                    && y + label.height <= spec.trim.heightMm + 1e-9
                validator.check(may(.position), field("x"), "This label stays where the design puts it.")
                validator.check(!may(.position) || inside, field("x"), "Keep the label on the card.")
                if may(.position), inside {
                    values[at].x = x
                    values[at].y = y
                }
            }
        }
        guard validator.isValid else { throw ValidationFailure(errors: validator.errors) }
        return values
    }

    /// Values of a design made from an older version, carried to `spec`: labels still there keep what the shopper
    /// set when the new version still allows it; new labels start at their defaults.
    public static func carried(_ values: [CardLabelValue], to spec: CardTemplateSpec) -> [CardLabelValue] {
        defaults(spec).map { fresh in
            guard let old = values.first(where: { $0.id == fresh.id }) else { return fresh }
            // Field by field: a change the new version refuses (a size now out of range) keeps only that default.
            let changes = [
                CardLabelEdit(id: old.id, text: old.text), CardLabelEdit(id: old.id, font: old.font),
                CardLabelEdit(id: old.id, size: old.size),
                CardLabelEdit(id: old.id, colour: old.colour), CardLabelEdit(id: old.id, x: old.x, y: old.y),
            ]
            return changes.reduce(fresh) { value, change in
                (try? apply([change], to: [value], spec: spec).first) ?? value
            }
        }
    }

    static func points(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }
}

/// Every field at fault, for a `PlazaError.validation` (Core has no server error type).
public struct ValidationFailure: Error, Sendable {
    public var errors: [FieldError]

    public init(errors: [FieldError]) {
        self.errors = errors
    }
}
