import Foundation

/// How a charge is told to each side (the inbox's titles and links, the push notifications'): `money` is the amount
/// as the reader writes it.
extension Charge {
    /// A paid charge's receipt (a paid request's payment); otherwise the page where charges are answered.
    public var askedLink: String {
        guard status == .approved || status == .refunded else { return "/wallet/charges" }
        let id = id.uuidString.lowercased()
        return business.kind == .user ? "/wallet/activity/\(id)" : "/wallet/receipts/\(id)"
    }

    /// The counter the charge came from; a person's own requests, on their requests page.
    public var answeredLink: String {
        business.kind == .user ? "/wallet/request" : "/wallet/counter/\(business.id?.uuidString.lowercased() ?? "")"
    }

    /// What the customer reads: "Bruno's Bakery asks you to pay $4.20."; `write` writes the refund's amounts.
    public func askedTitle(_ money: String, write: (Money) -> String = { $0.description }) -> String {
        let business = business.name
        switch status {
        case .pending: return "\(business) asks you to pay \(money)."
        case .approved where refundedAmount > 0:
            return "You paid \(business) \(money); \(refundSentence(write, customer: true))."
        case .approved: return "You paid \(business) \(money)."
        case .refunded: return "You paid \(business) \(money); \(refundSentence(write, customer: true))."
        case .declined: return "You declined \(business)'s charge of \(money)."
        case .cancelled: return "\(business) cancelled its charge of \(money)."
        case .expired: return "\(business)'s charge of \(money) expired unanswered."
        }
    }

    /// What the business (or the person who asked) reads: "Anna C. paid $4.20 to Bruno's Bakery."
    public func answeredTitle(_ money: String, write: (Money) -> String = { $0.description }) -> String {
        let customer = customer.name
        if business.kind == .user {
            return switch status {
            case .approved, .refunded: "\(customer) paid your request for \(money)."
            case .declined: "\(customer) declined your request for \(money)."
            default: "\(customer) did not answer your request for \(money) in time."
            }
        }
        switch status {
        case .approved where refundedAmount > 0, .refunded:
            return "\(customer) paid \(money) to \(business.name); \(refundSentence(write, customer: false))."
        case .approved: return "\(customer) paid \(money) to \(business.name)."
        case .declined: return "\(customer) declined \(money) from \(business.name)."
        default: return "\(customer) did not answer \(money) from \(business.name) in time."
        }
    }

    /// What a refund left, in a few words each side reads naturally (issue 39): the customer's "$1.00 came back, so it
    /// cost you $3.20" or "refunded in full"; the business's "you refunded $1.00 of it". `write` writes amounts as the
    /// reader does ("$1.00"; the API's "1.00 USD").
    public func refundSentence(_ write: (Money) -> String = { $0.description }, customer: Bool) -> String {
        let back = write(Money(amount: refundedAmount, currency: currency))
        guard isPartlyRefunded else { return customer ? "refunded in full" : "you refunded all of it" }
        let left = write(Money(amount: amount - refundedAmount, currency: currency))
        return customer ? "\(back) came back, so it cost you \(left)" : "you refunded \(back) of it"
    }

    /// The push notification for the charge's new state, and who gets it: a request to pay goes to the customer, an
    /// answer to whoever asked, a refund to the customer; the rest need no alert (the inbox and open apps show them).
    /// `refund`: the alert is for a refund just made (a partial one leaves the status `approved`).
    public func alert(
        money: String,
        customer customerID: UUID,
        requester: UUID,
        refund: Bool = false
    ) -> (user: UUID, content: NotificationContent)? {
        if refund {
            return (
                customerID,
                NotificationContent(
                    kind: .moneyReceived,
                    title: "\(business.name) sent you a refund.",
                    body: refundedAmount > 0 ? Self.sentence(refundSentence(customer: true)) : "",
                    link: askedLink
                )
            )
        }
        switch status {
        case .pending:
            let body = message ?? items.map(\.description).joined(separator: ", ")
            return (
                customerID,
                NotificationContent(
                    kind: .moneyRequests,
                    title: askedTitle(money),
                    body: body.isEmpty ? "Tap to pay or decline." : body,
                    link: askedLink
                )
            )
        case .approved, .declined, .expired:
            return (
                requester,
                NotificationContent(
                    kind: .moneyAnswers,
                    title: answeredTitle(money),
                    body: message ?? "",
                    link: answeredLink
                )
            )
        case .refunded, .cancelled:
            return nil
        }
    }
}

extension Charge {
    /// "refunded in full" as a sentence of its own: "Refunded in full."
    static func sentence(_ words: String) -> String { words.prefix(1).uppercased() + words.dropFirst() + "." }
}
