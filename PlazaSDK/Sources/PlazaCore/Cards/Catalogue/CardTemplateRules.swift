import Foundation

/// What a designer's template must be before it can be saved: a printable size, a front, colours with art, labels that
/// sit on the card in fonts Plaza has, and a paper to print on.
public enum CardTemplateRules {
    public static let trimRange = 50.0...320.0
    public static let sizeRange = 4.0...144.0
    public static let maxColours = 12
    public static let maxLabels = 40

    /// Every field at fault, all at once (`labels[1].font`, `colours[0].art`).
    public static func problems(_ request: CardTemplateRequest) -> [FieldError] {
        var validator = Validator()
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        validator.check(CardRules.nameLength.contains(name.count), "name", "Name the template (at most 80 characters).")
        let trim = request.trim
        validator.check(
            trimRange.contains(trim.widthMm) && trimRange.contains(trim.heightMm),
            "trim",
            "Cards are 50 to 320 mm a side (5×7 in is 127 × 177.8 mm)."
        )
        validator.check(request.pages.first == .front, "pages", "A card starts with its front.")
        validator.check(Set(request.pages).count == request.pages.count, "pages", "Name each page once.")
        validator.check(
            (1...maxColours).contains(request.colours.count),
            "colours",
            "Give the template 1 to \(maxColours) colour variants."
        )
        for (index, colour) in request.colours.enumerated() {
            validator.check(
                CardRules.nameLength.contains(colour.name.trimmingCharacters(in: .whitespaces).count),
                "colours[\(index)].name",
                "Name the colour."
            )
            validator.check(
                colour.art.keys.allSatisfy { key in CardPage(rawValue: key).map(request.pages.contains) ?? false },
                "colours[\(index)].art",
                "Art is per page of the card: \(request.pages.map(\.rawValue).joined(separator: ", "))."
            )
        }
        validator.check(request.labels.count <= maxLabels, "labels", "At most \(maxLabels) labels.")
        validator.check(
            Set(request.labels.map(\.id)).count == request.labels.count,
            "labels",
            "Give each label its own id."
        )
        for (index, label) in request.labels.enumerated() {
            for problem in problems(label, pages: request.pages, trim: trim) {
                validator.check(false, "labels[\(index)].\(problem.field)", problem.message)
            }
        }
        for problem in CardPhotoRules.problems(
            request.photoSlots,
            labels: request.labels,
            pages: request.pages,
            trim: trim
        ) {
            validator.check(false, problem.field, problem.message)
        }
        validator.check(!request.paperTypeIds.isEmpty, "paperTypeIds", "Offer at least one paper.")
        return validator.errors
    }

    static func problems(_ label: CardLabelSpec, pages: [CardPage], trim: CardTrim) -> [FieldError] {
        var validator = Validator()
        validator.check(
            !label.id.isEmpty && label.id.count <= 40
                && label.id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" },
            "id",
            "Use letters, digits, - or _ for the label's id."
        )
        validator.check(pages.contains(label.page), "page", "Put the label on one of the card's pages.")
        let fonts = CardRules.fontIDs
        validator.check(
            fonts.contains(label.font) && label.fonts.allSatisfy(fonts.contains),
            "font",
            "Fonts are \(fonts.joined(separator: ", "))."
        )
        validator.check(label.fonts.contains(label.font), "fonts", "The label's own font is one of those it offers.")
        validator.check(
            CardRules.colour(label.colour) != nil && label.colours.allSatisfy { CardRules.colour($0) != nil },
            "colour",
            "Colours are #rrggbb."
        )
        validator.check(
            label.colours.contains(label.colour.lowercased()),
            "colours",
            "The label's own colour is one of those it offers."
        )
        validator.check(
            sizeRange.contains(label.minSize) && sizeRange.contains(label.maxSize) && label.minSize <= label.size
                && label.size <= label.maxSize,
            "size",
            "Sizes are 4 to 144 pt, with minSize ≤ size ≤ maxSize."
        )
        let inside =
            label.x >= 0 && label.y >= 0 && label.width > 0 && label.height > 0
            && label.x + label.width <= trim.widthMm + 1e-9
            && label.y + label.height <= trim.heightMm + 1e-9
        validator.check(inside, "x", "Keep the label's box on the card.")
        validator.check(label.maxLines >= 0 && label.maxLines <= 50, "maxLines", "0 (as many as fit) to 50 lines.")
        validator.check(
            CardRules.labelTextLength.contains(label.text.count),
            "text",
            "Keep the text under 500 characters."
        )
        return validator.errors
    }
}
