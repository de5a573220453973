import Foundation
import PlazaCore

/// The counter's charge form as a point of sale: the business's items to tap (or a quantity to type), an amount on a
/// keypad for anything else, and the tips the business suggests.
extension WalletPages {
    struct Sale: Sendable {
        struct Item: Sendable {
            var id: String
            var name: String
            var price: String
            /// Minor units, for the page script's running total.
            var minor: Int64
            var quantity: String
        }

        struct Category: Sendable {
            var name: String?
            var items: [Item]
        }

        struct Tip: Sendable {
            var value: String
            var label: String
            var checked: Bool
        }

        var categories: [Category]
        var hasItems: Bool
        var tips: [Tip]
        var hasTips: Bool
        var tipOther: String
        /// Decimal places of the currency, for the keypad.
        var digits: Int
    }

    /// The field name of an item's quantity on the form.
    static func quantityField(_ item: UUID) -> String { "qty-\(item.uuidString.lowercased())" }

    func sale(_ items: [BusinessItem], tipPercents: [Int], form: FormState?, reader: Reader) -> Sale {
        let value = { (name: String) in form?.fields[name]?.value ?? "" }
        var categories: [Sale.Category] = []
        for item in items where item.price.currency == currency {
            let shown = Sale.Item(
                id: item.id.uuidString.lowercased(),
                name: item.name,
                price: reader.money(item.price.amount, item.price.currency),
                minor: item.price.amount,
                quantity: value(Self.quantityField(item.id))
            )
            if let last = categories.indices.last, categories[last].name == item.category {
                categories[last].items.append(shown)
            } else {
                categories.append(Sale.Category(name: item.category, items: [shown]))
            }
        }
        let tip = value("tip")
        let tips =
            [Sale.Tip(value: "", label: say("No tip"), checked: tip.isEmpty)]
            + tipPercents.map { Sale.Tip(value: String($0), label: "\($0) %", checked: tip == String($0)) }
            + [Sale.Tip(value: "other", label: say("Other"), checked: tip == "other")]
        return Sale(
            categories: categories,
            hasItems: !categories.isEmpty,
            tips: tips,
            hasTips: !tipPercents.isEmpty,
            tipOther: value("tipOther"),
            digits: Money.minorUnitDigits(currency)
        )
    }

    /// The charge the counter's form asks for: the tapped items as item lines, a typed amount as its own line (or the
    /// whole charge without items), and the tip chosen, worked out on what was bought. 422 naming the field at fault.
    func saleRequest(_ form: FormData, business: UUID, items: [BusinessItem]) throws -> CreateChargeRequest {
        var lines: [ChargeLine] = []
        var goods: Int64 = 0
        for item in items {
            let text = form[Self.quantityField(item.id)].trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, text != "0" else { continue }
            guard let quantity = Int(text), WalletRules.itemQuantity.contains(quantity) else {
                throw PlazaError.validation(
                    field: Self.quantityField(item.id),
                    phrase("Type a quantity from 0 to 999.")
                )
            }
            lines.append(ChargeLine(itemId: item.id, quantity: quantity))
            goods += item.price.amount * Int64(quantity)
        }
        let typed = form.optional("amount")
        let amount = try typed.map { try Self.amount($0, currency: currency) }
        if let amount {
            goods += amount
            if !lines.isEmpty || form.optional("description") != nil {
                lines.append(
                    ChargeLine(description: form.optional("description") ?? "Other", quantity: 1, unitAmount: amount)
                )
            }
        }
        guard goods > 0 else {
            throw PlazaError.validation(field: "amount", phrase("Type an amount, or tap what was bought."))
        }
        let tip: Int64
        switch form["tip"] {
        case "": tip = 0
        case "other":
            guard let other = WalletRules.parseAmount(form["tipOther"], currency: currency) else {
                throw PlazaError.validation(field: "tipOther", phrase("Type the tip, such as 2.00."))
            }
            tip = other
        case let percent:
            guard let percent = Int(percent), BusinessRules.tipPercentRange.contains(percent) else {
                throw PlazaError.validation(field: "tip", phrase("Choose one of the tips."))
            }
            // Half up, on what was bought: 15 % of 9.50 is 1.43.
            tip = (goods * Int64(percent) + 50) / 100
        }
        return CreateChargeRequest(
            businessId: business,
            customer: form.optional("customer"),
            payCode: form.optional("payCode"),
            amount: lines.isEmpty ? goods + tip : nil,
            currency: currency,
            items: lines.isEmpty ? nil : lines,
            coupon: form.optional("coupon"),
            tip: tip > 0 ? tip : nil
        )
    }
}
