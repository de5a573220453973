import PlazaCore

/// A dispute's alerts in each recipient's language (issue 41). The reason the customer chose is words, not data: each
/// has its own sentence, so that it is translated with the rest.
extension WalletService {
    /// The business's team hears what the customer reported: the reason chosen, then the customer's own words.
    static func disputeOpenedWording(_ reason: DisputeReason, customer: String, details: String) -> Wording {
        let body =
            switch reason {
            case .notReceived: phrase("I did not get what I paid for: {details}")
            case .wrongAmount: phrase("The amount is wrong: {details}")
            case .chargedTwice: phrase("I was charged twice: {details}")
            case .notAsDescribed: phrase("It was not as described: {details}")
            case .unauthorized: phrase("I did not make this payment: {details}")
            case .other: phrase("Something else: {details}")
            }
        return Wording(
            title: phrase("{customer} reports a problem with a payment"),
            body: body,
            values: ["customer": customer, "details": details]
        )
    }

    /// The customer hears the business's answer, with the refund it gave (`refunded`), if any.
    static func disputeAnsweredWording(business: String, refunded: Money?, message: String) -> Wording {
        let values = ["business": business, "message": message]
        guard let refunded else {
            return Wording(
                title: phrase("{business} answered the problem you reported"),
                body: phrase("{message}"),
                values: values
            )
        }
        return Wording(
            title: phrase("{business} refunded {money} for the problem you reported"),
            body: phrase("{message}"),
            values: values,
            amounts: ["money": refunded]
        )
    }
}
