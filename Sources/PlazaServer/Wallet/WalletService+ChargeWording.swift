import PlazaCore

extension WalletService {
    /// A charge's alert as catalogue keys, so that each recipient reads it in their own language (issue 41); nil
    /// keeps the English of `Charge.alert` (a refund's composed sentence, an answer after a part refund).
    static func chargeWording(_ charge: Charge, money: String, refund: Bool) -> Wording? {
        guard !refund else { return nil }
        let request = charge.business.kind == .user
        var values = ["customer": charge.customer.name, "business": charge.business.name, "money": money]
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
        return Wording(key: key, values: values)
    }
}
