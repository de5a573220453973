import Foundation

/// What kind of movement an activity entry is.
public enum ActivityKind: String, Codable, Sendable, CaseIterable {
    case topUp = "top_up"
    case withdrawal
    case transferIn = "transfer_in"
    case transferOut = "transfer_out"
    /// A charge paid (for the customer) or received (for the business).
    case charge
    case refund
    /// A marketplace buyer's money held by Plaza until the handshake (negative), given back (`market_refund`), or paid
    /// to the seller at the handshake (`market_sale`).
    case marketHold = "market_hold"
    case marketRefund = "market_refund"
    case marketSale = "market_sale"
    /// A card shop order paid from the balance (negative), or its money given back when it was cancelled.
    case cardOrder = "card_order"
    case cardRefund = "card_refund"
}

/// One line of `GET /v1/activity`: a movement as its owner sees it, with a signed amount (negative = money out).
public struct ActivityEntry: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var kind: ActivityKind
    public var amount: Int64
    public var currency: String
    /// `pending`, `succeeded` or `failed` for top-ups and withdrawals; `succeeded` for everything else.
    public var status: FundingStatus
    public var counterpart: Party
    public var note: String?
    /// The top-up, withdrawal, transfer or charge this entry belongs to.
    public var referenceId: UUID
    public var createdAt: Date
    /// Why a top-up or withdrawal failed, as the processor said (`card_declined`, `insufficient_funds`, ...).
    public var failureCode: String?

    public init(
        id: UUID,
        kind: ActivityKind,
        amount: Int64,
        currency: String,
        status: FundingStatus,
        counterpart: Party,
        note: String?,
        referenceId: UUID,
        createdAt: Date,
        failureCode: String? = nil
    ) {
        self.failureCode = failureCode
        self.id = id
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.status = status
        self.counterpart = counterpart
        self.note = note
        self.referenceId = referenceId
        self.createdAt = createdAt
    }
}

/// One day of a business's charges (`GET /v1/businesses/{id}/daily-totals`), in the operator's time zone.
public struct DailyTotal: Codable, Sendable, Hashable {
    /// `2026-11-23`.
    public var date: String
    public var currency: String
    public var charges: Int
    public var charged: Int64
    public var refunded: Int64
    public var net: Int64

    public init(date: String, currency: String, charges: Int, charged: Int64, refunded: Int64, net: Int64) {
        self.date = date
        self.currency = currency
        self.charges = charges
        self.charged = charged
        self.refunded = refunded
        self.net = net
    }
}
