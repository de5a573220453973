import Foundation
import PlazaCore

extension AdminPages {
    /// Who a merchant is, on their review item, in words an admin checks before approving (issue 39).
    struct MerchantFacts: Sendable {
        var name: String
        var username: String
        var email: String
        var emailState: String
        var emailVerified: Bool
        var memberSince: String
        var payout: String
        var payoutReady: Bool

        init(_ merchant: ReviewMerchant, _ reader: Reader) {
            name = merchant.displayName
            username = merchant.username
            email = merchant.email
            emailVerified = merchant.emailVerified
            emailState = merchant.emailVerified ? say("verified") : say("not verified yet")
            memberSince = reader.day(merchant.memberSince)
            payoutReady = [.ready, .notNeeded].contains(merchant.payoutAccount)
            payout =
                switch merchant.payoutAccount {
                case .ready: say("Bank account connected: payouts reach it.")
                case .incomplete: say("Bank account started but not finished: payouts cannot leave yet.")
                case .none: say("No bank account connected: payouts cannot leave yet.")
                case .notNeeded: say("No bank account needed: this Plaza pays out without one.")
                }
        }
    }
}
