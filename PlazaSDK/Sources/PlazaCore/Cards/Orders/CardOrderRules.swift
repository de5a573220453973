import Foundation

/// The sums of a cart or an order: sample credit, flat shipping and tax as the operator configures them.
public enum CardOrderRules {
    /// A line for the sums: its kind, template and amount.
    public struct Line: Sendable, Hashable {
        public var kind: CardItemKind
        public var templateId: UUID
        public var amount: Int64

        public init(kind: CardItemKind, templateId: UUID, amount: Int64) {
            self.kind = kind
            self.templateId = templateId
            self.amount = amount
        }
    }

    /// The sums of a cart or an order.
    public struct Totals: Sendable, Hashable {
        public var subtotal: Int64
        public var credit: Int64
        public var shipping: Int64
        public var tax: Int64
        public var total: Int64
    }

    /// The sums would pass `AmountBounds.maximum`: at line `line` (its running subtotal), or with shipping and tax (nil).
    public struct TooLarge: Error, Sendable, Hashable {
        public var line: Int?
    }

    /// Subtotal, credit, shipping, tax and total, every sum checked against `AmountBounds.maximum`. `credits` is what
    /// earlier samples left to credit, per template; each template's credit goes only against the prints of that
    /// template in these lines (so it never exceeds the subtotal). A sample in these lines beside prints of its template
    /// is credited the same way (issue 39: ordering both at once must not lose the credit a later order would get).
    public static func totals(
        _ lines: [Line],
        credits: [UUID: Int64],
        shipping flat: Int64,
        taxBasisPoints: Int
    ) -> Result<Totals, TooLarge> {
        var subtotal: Int64 = 0
        for (index, line) in lines.enumerated() {
            guard let sum = AmountBounds.sum([subtotal, line.amount]) else { return .failure(TooLarge(line: index)) }
            subtotal = sum
        }
        var credit: Int64 = 0
        var credits = credits
        for line in lines where line.kind == .sample {
            credits[line.templateId, default: 0] += line.amount
        }
        for (template, available) in credits {
            let prints = lines.filter { $0.kind == .print && $0.templateId == template }.reduce(0) { $0 + $1.amount }
            credit += max(0, min(available, prints))
        }
        credit = min(credit, subtotal)
        let shipping = lines.isEmpty ? 0 : flat
        let tax = CardRules.tax(on: subtotal - credit, basisPoints: taxBasisPoints)
        guard let total = AmountBounds.sum([subtotal - credit, shipping, tax]) else {
            return .failure(TooLarge(line: nil))
        }
        return .success(Totals(subtotal: subtotal, credit: credit, shipping: shipping, tax: tax, total: total))
    }

    /// What is wrong with an address, by field.
    public static func problems(_ address: CardShippingAddress) -> [FieldError] {
        var validator = Validator()
        let filled = { (text: String, length: ClosedRange<Int>) in
            length.contains(text.trimmingCharacters(in: .whitespaces).count)
        }
        validator.check(filled(address.name, 1...80), "shippingAddress.name", "Whom is it for?")
        validator.check(filled(address.line1, 1...120), "shippingAddress.line1", "Give the street and number.")
        validator.check(filled(address.city, 1...80), "shippingAddress.city", "Give the town or city.")
        validator.check(filled(address.postalCode, 2...12), "shippingAddress.postalCode", "Give the postal code.")
        let country = address.country.trimmingCharacters(in: .whitespaces)
        validator.check(
            country.count == 2 && country.allSatisfy(\.isLetter),
            "shippingAddress.country",
            "Give the country's two-letter code (US, DE, …)."
        )
        return validator.errors
    }
}
