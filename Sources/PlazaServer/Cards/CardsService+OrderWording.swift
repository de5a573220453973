import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia
import SQLKit

/// How an order reads: its API shape, its one-line description and amounts, its receipt mail, its status in a sentence.
extension CardsService {
    /// The receipt mail of a paid order.
    func confirm(_ order: CardOrder, to email: String, on db: any SQLDatabase) async throws {
        let lines = order.items.map {
            "- \($0.designName): \($0.kind == .sample ? "1 sample" : "\($0.quantity) cards") on \($0.paperName), \(Self.money($0.amount, order.currency))"
        }
        var text = "Thank you: your order is paid and goes to the printer soon.\n\n" + lines.joined(separator: "\n")
        if order.credit > 0 { text += "\nSample credit: -\(Self.money(order.credit, order.currency))" }
        text += "\nShipping: \(Self.money(order.shipping, order.currency))"
        if order.tax > 0 { text += "\nTax: \(Self.money(order.tax, order.currency))" }
        text +=
            "\nTotal: \(Self.money(order.total, order.currency))\n\nShips to \(order.shippingAddress.name), \(order.shippingAddress.line1), "
            + "\(order.shippingAddress.postalCode) \(order.shippingAddress.city)\n\n\(baseURL)/cards/orders/\(order.id.uuidString.lowercased())"
        try await OutboxStore().enqueue(OutgoingMail(to: email, subject: "Your card order is paid", text: text), on: db)
    }

    static func dto(_ order: CardsStore.OrderRecord, items: [CardsStore.OrderItemRecord]) -> CardOrder {
        CardOrder(
            id: order.id,
            status: order.status,
            items: items.map(\.item),
            shippingAddress: order.shippingAddress,
            subtotal: order.subtotal,
            credit: order.credit,
            shipping: order.shipping,
            tax: order.tax,
            total: order.total,
            currency: order.currency,
            paymentMethod: order.paymentMethod,
            checkoutUrl: order.status == .pendingPayment ? order.checkoutURL : nil,
            paymentProblem: order.status == .pendingPayment ? order.paymentProblem : nil,
            cancelReason: order.cancelReason,
            createdAt: order.createdAt,
            paidAt: order.paidAt,
            shippedAt: order.shippedAt
        )
    }

    static func describe(_ order: CardOrder) -> String { describe(order.items) }

    /// "Golden Circle (50 cards)", "Golden Circle (50 cards) and Olive Sprig (sample)", "… and 2 more lines".
    static func describe(_ items: [CardOrderItem]) -> String {
        let line = { (item: CardOrderItem) in
            "\(item.designName) (\(item.kind == .sample ? "sample" : item.quantity == 1 ? "1 card" : "\(item.quantity) cards"))"
        }
        switch items.count {
        case 0: return "cards"
        case 1: return line(items[0])
        case 2: return "\(line(items[0])) and \(line(items[1]))"
        default: return "\(line(items[0])) and \(items.count - 1) more lines"
        }
    }

    static func money(_ amount: Int64, _ currency: String) -> String {
        Reader.standard.money(amount, currency)
    }
}

extension CardOrderStatus {
    /// How a sentence names it ("paid", "at the printer").
    var label: String {
        switch self {
        case .pendingPayment: "waiting for payment"
        case .paid: "paid"
        case .inProduction: "at the printer"
        case .shipped: "shipped"
        case .cancelled: "cancelled"
        }
    }
}
