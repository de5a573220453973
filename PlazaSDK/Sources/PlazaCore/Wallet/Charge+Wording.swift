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

    /// What the customer reads: "Bruno's Bakery asks you to pay $4.20."
    public func askedTitle(_ money: String) -> String {
        let business = business.name
        switch status {
        case .pending: return "\(business) asks you to pay \(money)."
        case .approved: return "You paid \(business) \(money)."
        case .refunded: return "You paid \(business) \(money); \(refundSummary ?? "refunded") since."
        case .declined: return "You declined \(business)'s charge of \(money)."
        case .cancelled: return "\(business) cancelled its charge of \(money)."
        case .expired: return "\(business)'s charge of \(money) expired unanswered."
        }
    }

    /// What the business (or the person who asked) reads: "Anna C. paid $4.20 to Bruno's Bakery."
    public func answeredTitle(_ money: String) -> String {
        let customer = customer.name
        if business.kind == .user {
            return switch status {
            case .approved, .refunded: "\(customer) paid your request for \(money)."
            case .declined: "\(customer) declined your request for \(money)."
            default: "\(customer) did not answer your request for \(money) in time."
            }
        }
        switch status {
        case .approved: return "\(customer) paid \(money) to \(business.name)."
        case .refunded: return "\(customer) paid \(money) to \(business.name); \(refundSummary ?? "refunded") since."
        case .declined: return "\(customer) declined \(money) from \(business.name)."
        default: return "\(customer) did not answer \(money) from \(business.name) in time."
        }
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
                    body: refundSummary ?? "",
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

extension Transfer {
    /// The recipient's push notification: "Carla K. sent you $7.25."
    public func receivedAlert(money: String) -> NotificationContent {
        NotificationContent(
            kind: .moneyReceived,
            title: "\(from.name) sent you \(money).",
            body: note ?? "",
            link: "/wallet/activity/\(id.uuidString.lowercased())"
        )
    }
}
