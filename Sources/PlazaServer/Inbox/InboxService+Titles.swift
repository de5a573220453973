import Foundation
import PlazaCore

/// The inbox's titles, said in the page's language (English for the API, which has none): whole sentences per case,
/// so that a translation never meets an English word put into it (issue 41).
extension InboxService {
    /// What the customer reads of a charge asked of them: "Bruno's Bakery asks you to pay $4.20."
    static func askedTitle(_ charge: Charge, write: (Money) -> String) -> String {
        var values = ["business": charge.business.name, "money": write(charge.money)]
        switch charge.status {
        case .pending: return say("{business} asks you to pay {money}.", values)
        case .approved where charge.refundedAmount > 0, .refunded:
            guard charge.isPartlyRefunded else { return say("You paid {business} {money}; refunded in full.", values) }
            values["back"] = write(Money(amount: charge.refundedAmount, currency: charge.currency))
            values["left"] = write(Money(amount: charge.amount - charge.refundedAmount, currency: charge.currency))
            return say("You paid {business} {money}; {back} came back, so it cost you {left}.", values)
        case .approved: return say("You paid {business} {money}.", values)
        case .declined: return say("You declined {business}'s charge of {money}.", values)
        case .cancelled: return say("{business} cancelled its charge of {money}.", values)
        case .expired: return say("{business}'s charge of {money} expired unanswered.", values)
        }
    }

    /// What the business (or the person who asked) reads: "Anna C. paid $4.20 to Bruno's Bakery."
    static func answeredTitle(_ charge: Charge, write: (Money) -> String) -> String {
        var values = ["customer": charge.customer.name, "business": charge.business.name, "money": write(charge.money)]
        if charge.business.kind == .user {
            return switch charge.status {
            case .approved, .refunded: say("{customer} paid your request for {money}.", values)
            case .declined: say("{customer} declined your request for {money}.", values)
            default: say("{customer} did not answer your request for {money} in time.", values)
            }
        }
        switch charge.status {
        case .approved where charge.refundedAmount > 0, .refunded:
            guard charge.isPartlyRefunded else {
                return say("{customer} paid {money} to {business}; you refunded all of it.", values)
            }
            values["back"] = write(Money(amount: charge.refundedAmount, currency: charge.currency))
            return say("{customer} paid {money} to {business}; you refunded {back} of it.", values)
        case .approved: return say("{customer} paid {money} to {business}.", values)
        case .declined: return say("{customer} declined {money} from {business}.", values)
        default: return say("{customer} did not answer {money} from {business} in time.", values)
        }
    }

    /// A card order paid from the wallet, or its money back: `what` is the order's note (its designs, written in the
    /// shopper's language when it was paid).
    static func cardOrderTitle(paid: Bool, money: String, what: String?) -> String {
        let values = ["money": money, "what": what ?? ""]
        return switch (paid, what != nil) {
        case (true, true): say("Your card order is paid ({money}): {what}. We let you know when it ships.", values)
        case (true, false): say("Your card order is paid ({money}). We let you know when it ships.", values)
        case (false, true): say("{money} for {what} is back in your wallet.", values)
        case (false, false): say("{money} for your cards is back in your wallet.", values)
        }
    }
}
