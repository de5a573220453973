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

    /// Subtotal, credit, shipping, tax and total. `credits` is what earlier samples left to credit, per template; each
    /// template's credit goes only against the prints of that template in these lines.
    public static func totals(
        _ lines: [Line], credits: [UUID: Int64], shipping flat: Int64, taxBasisPoints: Int
    ) -> (subtotal: Int64, credit: Int64, shipping: Int64, tax: Int64, total: Int64) {
        let subtotal = lines.reduce(0) { $0 + $1.amount }
        var credit: Int64 = 0
        for (template, available) in credits {
            let prints = lines.filter { $0.kind == .print && $0.templateId == template }.reduce(0) { $0 + $1.amount }
            credit += min(available, prints)
        }
        let shipping = lines.isEmpty ? 0 : flat
        let tax = CardRules.tax(on: subtotal - credit, basisPoints: taxBasisPoints)
        return (subtotal, credit, shipping, tax, subtotal - credit + shipping + tax)
    }

    /// What is wrong with an address, by field.
    public static func problems(_ address: CardShippingAddress) -> [FieldError] {
        var validator = Validator()
        let filled = { (text: String, length: ClosedRange<Int>) in length.contains(text.trimmingCharacters(in: .whitespaces).count) }
        validator.check(filled(address.name, 1...80), "shippingAddress.name", "Whom is it for?")
        validator.check(filled(address.line1, 1...120), "shippingAddress.line1", "Give the street and number.")
        validator.check(filled(address.city, 1...80), "shippingAddress.city", "Give the town or city.")
        validator.check(filled(address.postalCode, 2...12), "shippingAddress.postalCode", "Give the postal code.")
        let country = address.country.trimmingCharacters(in: .whitespaces)
        validator.check(
            country.count == 2 && country.allSatisfy(\.isLetter), "shippingAddress.country", "Give the country's two-letter code (US, DE, …).")
        return validator.errors
    }
}
