import PlazaCore

extension WalletService {
    /// A charge's alert (a refund's too) in words of the catalogue, so that each recipient reads it in their own
    /// language with its amounts written their way (issue 41); nil keeps the English of `Charge.alert` (an answer
    /// after a part refund, which no alert follows today).
    static func chargeWording(_ charge: Charge, refund: Bool) -> Wording? {
        guard !refund else { return refundWording(charge) }
        let request = charge.business.kind == .user
        var values = ["customer": charge.customer.name, "business": charge.business.name]
        values["body"] = charge.message ?? ""
        let key: String
        switch charge.status {
        case .pending:
            values["body"] = charge.message ?? charge.items.map(\.description).joined(separator: ", ")
            key = values["body"]?.isEmpty == false ? "alert.charge.asked_for" : "alert.charge.asked"
        case .approved where charge.refundedAmount == 0: key = request ? "alert.request.paid" : "alert.charge.paid"
        case .declined: key = request ? "alert.request.declined" : "alert.charge.declined"
        case .expired: key = request ? "alert.request.expired" : "alert.charge.expired"
        default: return nil
        }
        return Wording(key: key, values: values, amounts: ["money": charge.money])
    }

    /// A refund just made, for the customer: what came back and, after a part refund, what the charge cost in the end.
    private static func refundWording(_ charge: Charge) -> Wording {
        let title = phrase("{business} sent you a refund.")
        let values = ["business": charge.business.name]
        guard charge.refundedAmount > 0 else { return Wording(title: title, body: "", values: values) }
        guard charge.isPartlyRefunded else {
            return Wording(title: title, body: phrase("Refunded in full."), values: values)
        }
        return Wording(
            title: title,
            body: phrase("{back} came back, so it cost you {left}."),
            values: values,
            amounts: [
                "back": Money(amount: charge.refundedAmount, currency: charge.currency),
                "left": Money(amount: charge.amount - charge.refundedAmount, currency: charge.currency),
            ]
        )
    }
}
