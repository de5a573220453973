import PlazaCore

/// How an order reads on its pages: its sums, its lines and its status in the reader's words.
extension CardsPages {
    struct Sums: Sendable {
        var subtotal: String
        var credit: String?
        var shipping: String
        var tax: String?
        var total: String
    }

    static func sums(
        subtotal: Int64,
        credit: Int64,
        shipping: Int64,
        tax: Int64,
        total: Int64,
        currency: String,
        reader: Reader
    ) -> Sums {
        Sums(
            subtotal: reader.money(subtotal, currency),
            credit: credit > 0 ? "−" + reader.money(credit, currency) : nil,
            shipping: reader.money(shipping, currency),
            tax: tax > 0 ? reader.money(tax, currency) : nil,
            total: reader.money(total, currency)
        )
    }

    static func what(_ kind: CardItemKind, quantity: Int, paper: String, unit: String, reader: Reader) -> String {
        kind == .sample
            ? say("1 sample on {paper}", ["paper": paper])
            : reader.count(quantity, "count.cards_on_paper", ["paper": paper, "unit": unit])
    }

    /// "Golden Circle (50 cards)", "… and Olive Sprig (sample)", "… and 2 more lines" in the reader's words.
    static func describe(_ order: CardOrder, reader: Reader) -> String {
        CardsService.describe(order.items, words: reader.words, locale: reader.locale)
    }

    /// A card's page as the reader names it ("Front").
    static func pageName(_ page: CardPage) -> String {
        switch page {
        case .front: say("Front")
        case .inside: say("Inside")
        case .back: say("Back")
        }
    }

    static func statusName(_ status: CardOrderStatus) -> String {
        switch status {
        case .pendingPayment: say("Waiting for payment")
        case .paid: say("Paid")
        case .inProduction: say("At the printer")
        case .shipped: say("Shipped")
        case .cancelled: say("Cancelled")
        }
    }
}
