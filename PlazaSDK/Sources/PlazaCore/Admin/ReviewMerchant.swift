import Foundation

/// Who asks to be listed, on a merchant's review item: an admin sees the owner's identity and payout status before
/// approving (issue 39, "trust at the till").
public struct ReviewMerchant: Codable, Sendable, Hashable {
    public var displayName: String
    public var username: String
    public var email: String
    public var emailVerified: Bool
    /// When the account was created.
    public var memberSince: Date
    /// Whether the merchant's withdrawals can reach a bank account (`not_needed` where the processor needs none).
    public var payoutAccount: PayoutAccount.Status

    public init(
        displayName: String,
        username: String,
        email: String,
        emailVerified: Bool,
        memberSince: Date,
        payoutAccount: PayoutAccount.Status
    ) {
        self.displayName = displayName
        self.username = username
        self.email = email
        self.emailVerified = emailVerified
        self.memberSince = memberSince
        self.payoutAccount = payoutAccount
    }
}
