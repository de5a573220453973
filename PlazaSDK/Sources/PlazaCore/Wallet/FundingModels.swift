import Foundation

/// A payment card as typed in; only its brand and last four digits are ever kept.
public struct CardDetails: Codable, Sendable, Hashable {
    public var number: String
    public var expMonth: Int
    public var expYear: Int
    public var cvc: String

    public init(number: String, expMonth: Int, expYear: Int, cvc: String) {
        self.number = number
        self.expMonth = expMonth
        self.expYear = expYear
        self.cvc = cvc
    }
}

/// `POST /v1/wallet/top-ups`.
public struct TopUpRequest: Codable, Sendable, Hashable {
    public var amount: Int64
    public var currency: String
    /// The card, where Plaza's own form takes it (the sandbox). Leave it out where the processor's hosted page does
    /// (Stripe): the answer's `checkoutUrl` is where the customer pays.
    public var card: CardDetails?

    public init(amount: Int64, currency: String, card: CardDetails? = nil) {
        self.amount = amount
        self.currency = currency
        self.card = card
    }
}

/// Where money from or to a card or bank stands: `pending` until the processor's webhook says how it ended.
public enum FundingStatus: String, Codable, Sendable, CaseIterable {
    case pending
    case succeeded
    case failed
}

/// Money moved into the wallet from a card.
public struct TopUp: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var amount: Int64
    public var currency: String
    public var status: FundingStatus
    public var cardBrand: String
    public var cardLast4: String
    /// Why it failed: `card_declined` or `insufficient_funds` (the processor's code).
    public var failureCode: String?
    /// While pending with a processor that takes cards on its own page: where the customer pays.
    public var checkoutUrl: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID,
        amount: Int64,
        currency: String,
        status: FundingStatus,
        cardBrand: String,
        cardLast4: String,
        failureCode: String?,
        checkoutUrl: String? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.amount = amount
        self.currency = currency
        self.status = status
        self.cardBrand = cardBrand
        self.cardLast4 = cardLast4
        self.failureCode = failureCode
        self.checkoutUrl = checkoutUrl
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `POST /v1/wallet/withdrawals`: to the bank account on file with the processor.
public struct WithdrawalRequest: Codable, Sendable, Hashable {
    public var amount: Int64
    public var currency: String
    /// Pay out of this business's balance instead of your own (its owners only).
    public var businessId: UUID?

    public init(amount: Int64, currency: String, businessId: UUID? = nil) {
        self.amount = amount
        self.currency = currency
        self.businessId = businessId
    }
}

/// Money moved out of the wallet; it leaves the balance at once and comes back if the payout fails.
public struct Withdrawal: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var amount: Int64
    public var currency: String
    public var status: FundingStatus
    public var failureCode: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID,
        amount: Int64,
        currency: String,
        status: FundingStatus,
        failureCode: String?,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.amount = amount
        self.currency = currency
        self.status = status
        self.failureCode = failureCode
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `GET /v1/me/payout-account`: where withdrawals go, for processors that pay out to an account the user connects
/// (Stripe Connect); the sandbox pays out to "the bank account on file" and needs none.
public struct PayoutAccount: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable {
        /// This Plaza's processor needs no account: withdraw straight away.
        case notNeeded = "not_needed"
        /// Not connected yet: `POST /v1/me/payout-account/onboarding` gives the processor's page for it.
        case none
        /// Started on the processor's page but not finished (or still being checked).
        case incomplete
        /// Withdrawals reach it.
        case ready
    }

    public var status: Status

    public init(status: Status) {
        self.status = status
    }
}

/// `POST /v1/me/payout-account/onboarding`: the processor's page where the user connects a bank account; it sends
/// them back to Plaza's wallet when done.
public struct PayoutOnboarding: Codable, Sendable, Hashable {
    public var url: String

    public init(url: String) {
        self.url = url
    }
}
