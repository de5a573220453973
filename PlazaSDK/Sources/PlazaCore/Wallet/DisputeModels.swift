import Foundation

/// What went wrong with a paid charge, as the customer reports it (issue 39, trust at the till).
public enum DisputeReason: String, Codable, Sendable, CaseIterable, Hashable {
    case notReceived = "not_received"
    case wrongAmount = "wrong_amount"
    case chargedTwice = "charged_twice"
    case notAsDescribed = "not_as_described"
    case unauthorized
    case other

    public var label: String {
        switch self {
        case .notReceived: "I did not get what I paid for"
        case .wrongAmount: "The amount is wrong"
        case .chargedTwice: "I was charged twice"
        case .notAsDescribed: "It was not as described"
        case .unauthorized: "I did not make this payment"
        case .other: "Something else"
        }
    }
}

/// Where a dispute stands: the business answers (`open` → `answered`, or `refunded` when it gives money back); the
/// customer may ask Plaza to decide (`escalated`), and an admin upholds it with a refund (`refunded`) or rejects it.
public enum DisputeState: String, Codable, Sendable, CaseIterable, Hashable {
    case open, answered, escalated, refunded, rejected

    /// Still moving: the business may answer, the customer may ask Plaza, an admin may decide.
    public var isActive: Bool { [.open, .answered, .escalated].contains(self) }

    public var label: String {
        switch self {
        case .open: "Waiting for the business"
        case .answered: "The business answered"
        case .escalated: "Plaza decides"
        case .refunded: "Refunded"
        case .rejected: "Not upheld"
        }
    }
}

/// A customer's report of a problem with a paid charge, with the business's answer and Plaza's decision.
public struct Dispute: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var chargeId: UUID
    public var chargeReference: String
    public var businessId: UUID
    public var businessName: String
    public var customer: Person
    /// What the charge asked, and what of it was given back so far (by any refund).
    public var amount: Int64
    public var refundedAmount: Int64
    public var currency: String
    public var reason: DisputeReason
    public var details: String
    public var state: DisputeState
    /// The business's answer, and when.
    public var answer: String?
    public var answeredAt: Date?
    /// What this dispute gave back (the business's refund with its answer, or Plaza's decision).
    public var disputeRefund: Int64?
    /// An admin's statement of reasons, once Plaza decided.
    public var decision: String?
    public var decidedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID,
        chargeId: UUID,
        chargeReference: String,
        businessId: UUID,
        businessName: String,
        customer: Person,
        amount: Int64,
        refundedAmount: Int64,
        currency: String,
        reason: DisputeReason,
        details: String,
        state: DisputeState,
        answer: String? = nil,
        answeredAt: Date? = nil,
        disputeRefund: Int64? = nil,
        decision: String? = nil,
        decidedAt: Date? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.chargeId = chargeId
        self.chargeReference = chargeReference
        self.businessId = businessId
        self.businessName = businessName
        self.customer = customer
        self.amount = amount
        self.refundedAmount = refundedAmount
        self.currency = currency
        self.reason = reason
        self.details = details
        self.state = state
        self.answer = answer
        self.answeredAt = answeredAt
        self.disputeRefund = disputeRefund
        self.decision = decision
        self.decidedAt = decidedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `POST /v1/charges/{id}/disputes`: what went wrong, in a category and the customer's words.
public struct DisputeRequest: Codable, Sendable, Hashable {
    public var reason: DisputeReason
    public var details: String

    public init(reason: DisputeReason, details: String) {
        self.reason = reason
        self.details = details
    }
}

/// `POST /v1/disputes/{id}/answer`: the business's answer; with `refund` (minor units), money goes back to the
/// customer through the charge's refund, and the dispute is settled.
public struct DisputeAnswer: Codable, Sendable, Hashable {
    public var message: String
    public var refund: Int64?

    public init(message: String, refund: Int64? = nil) {
        self.message = message
        self.refund = refund
    }
}

public enum DisputeRules {
    public static let detailsLength = 10...1_000
    public static let answerLength = 3...1_000
}
