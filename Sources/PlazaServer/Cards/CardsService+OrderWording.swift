import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia
import SQLKit

/// How an order reads: its API shape, its one-line description and amounts, its receipt mail, its status in a sentence.
extension CardsService {
    /// The receipt mail of a paid order, in its owner's language.
    func confirm(_ order: CardOrder, owner: UUID, to email: String, on db: any SQLDatabase) async throws {
        let words = try await recipientWords(owner, on: db)
        let money = { (amount: Int64) in
            Money(amount: amount, currency: order.currency).formatted(locale: words.locale)
        }
        var sums = order.items.map { item in
            let values = ["design": item.designName, "paper": item.paperName, "amount": money(item.amount)]
            return item.kind == .sample
                ? words("mail.card_paid.sample", values) : words.count(item.quantity, "mail.card_paid.cards", values)
        }
        if order.credit > 0 { sums.append(words("mail.card_paid.credit", ["amount": money(order.credit)])) }
        sums.append(words("mail.card_paid.shipping", ["amount": money(order.shipping)]))
        if order.tax > 0 { sums.append(words("mail.card_paid.tax", ["amount": money(order.tax)])) }
        sums.append(words("mail.card_paid.total", ["amount": money(order.total)]))
        let address = order.shippingAddress
        let values = [
            "sums": sums.joined(separator: "\n"),
            "address": "\(address.name), \(address.line1), \(address.postalCode) \(address.city)",
            "link": link(order.id),
        ]
        let mail = OutgoingMail(
            to: email,
            subject: words("mail.card_paid.subject"),
            text: words("mail.card_paid.text", values)
        )
        try await OutboxStore().enqueue(mail, on: db)
    }

    /// The mail of a shipped order, in its owner's language.
    func shippedMail(
        _ order: CardOrder,
        owner: UUID,
        to email: String,
        on db: any SQLDatabase
    ) async throws
        -> OutgoingMail
    {
        let words = try await recipientWords(owner, on: db)
        let values = [
            "order": Self.describe(order.items, words: words, locale: words.locale),
            "name": order.shippingAddress.name, "city": order.shippingAddress.city, "link": link(order.id),
        ]
        return OutgoingMail(
            to: email,
            subject: words("mail.card_shipped.subject"),
            text: words("mail.card_shipped.text", values)
        )
    }

    /// The mail of a cancelled order, in its owner's language: the reason as written (a sentence of Plaza's said in
    /// their language), and the money that went back when it was paid.
    func cancelledMail(
        _ order: CardOrder,
        owner: UUID,
        to email: String,
        reason: String,
        refunded: Money?,
        on db: any SQLDatabase
    ) async throws -> OutgoingMail {
        let words = try await recipientWords(owner, on: db)
        var values = [
            "order": Self.describe(order.items, words: words, locale: words.locale),
            "reason": words.say(reason), "link": link(order.id),
        ]
        if let refunded { values["amount"] = refunded.formatted(locale: words.locale) }
        return OutgoingMail(
            to: email,
            subject: words("mail.card_cancelled.subject"),
            text: words(refunded == nil ? "mail.card_cancelled.text" : "mail.card_cancelled.refunded", values)
        )
    }

    /// The words of an order's owner for their mails: their language, else the operator's.
    func recipientWords(_ user: UUID, on db: any SQLDatabase) async throws -> Catalogue.Words {
        let language = try await store.language(of: user, on: db)
        return words(language)
    }

    private func link(_ order: UUID) -> String { "\(baseURL)/cards/orders/\(order.uuidString.lowercased())" }

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

    /// "Golden Circle (50 cards)", "Golden Circle (50 cards) and Olive Sprig (sample)", "… and 2 more lines", in
    /// `words`' language, counts in `locale`'s digits (a page's reader or a mail's recipient).
    static func describe(_ items: [CardOrderItem], words: Catalogue.Words, locale: Locale) -> String {
        let counted = { (number: Int, key: String, values: [String: String]) in
            words.plural(key, count: number, shown: number.formatted(.number.locale(locale)), values)
        }
        let line = { (item: CardOrderItem) in
            item.kind == .sample
                ? words.say("{design} (sample)", ["design": item.designName])
                : counted(item.quantity, "count.design_cards", ["design": item.designName])
        }
        switch items.count {
        case 0: return words.say("cards")
        case 1: return line(items[0])
        case 2: return words.say("{first} and {second}", ["first": line(items[0]), "second": line(items[1])])
        default: return counted(items.count - 1, "count.more_lines", ["first": line(items[0])])
        }
    }

    /// In English (for the tests' and tools' eyes).
    static func describe(_ items: [CardOrderItem]) -> String {
        describe(items, words: Catalogue.englishWords, locale: Reader.standard.locale)
    }
}

extension CardOrderStatus {
    /// "The order is paid.": a refused change's detail, a whole sentence per status so that each is translated.
    var stateSentence: String {
        switch self {
        case .pendingPayment: phrase("The order is waiting for payment.")
        case .paid: phrase("The order is paid.")
        case .inProduction: phrase("The order is at the printer.")
        case .shipped: phrase("The order is shipped.")
        case .cancelled: phrase("The order is cancelled.")
        }
    }

    /// "This order is paid now.": the title when another change came first.
    var nowSentence: String {
        switch self {
        case .pendingPayment: phrase("This order is waiting for payment now.")
        case .paid: phrase("This order is paid now.")
        case .inProduction: phrase("This order is at the printer now.")
        case .shipped: phrase("This order is shipped now.")
        case .cancelled: phrase("This order is cancelled now.")
        }
    }
}
