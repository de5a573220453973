import Foundation

/// The invariants `plaza verify` checks; the raw values are printed and alerts match on them, so they never change.
public enum VerifyKind: String, Sendable, Hashable, CaseIterable {
    case ledgerBalance = "ledger_balance"
    case escrowHeld = "escrow_held"
    case escrowTotal = "escrow_total"
    case cardOrderPayment = "card_order_payment"
    case couponClaims = "coupon_claims"
    case couponRedemption = "coupon_redemption"
    case punchCount = "punch_count"
    case bidCount = "bid_count"
    case bidLeader = "bid_leader"
    case idempotencyAnswer = "idempotency_answer"
}

/// One broken invariant: which, the object it is broken on (its own id), and what is wrong, printed as `KIND ID: message`.
public struct VerifyFinding: Sendable, Hashable, CustomStringConvertible {
    public var kind: VerifyKind
    /// The object's own id: an offer, card order, campaign or claim, loyalty card, listing, idempotency key; an account
    /// (`owner currency`) or journal entry for the ledger; a currency for the escrow total.
    public var id: String
    public var message: String

    public init(kind: VerifyKind, id: String, message: String) {
        (self.kind, self.id, self.message) = (kind, id, message)
    }

    /// A finding on the object `id` (written lowercased, as URLs and the database's text form write it).
    init(_ kind: VerifyKind, _ id: UUID, _ message: String) {
        self.init(kind: kind, id: id.uuidString.lowercased(), message: message)
    }

    public var description: String { "\(kind.rawValue) \(id): \(message)" }

    /// An amount in minor units as people read it: `1.00 USD`.
    static func money(_ amount: Int64, _ currency: String) -> String {
        let sign = amount < 0 ? "-" : ""
        let units = amount.magnitude
        let cents = units % 100
        return "\(sign)\(units / 100).\(cents < 10 ? "0" : "")\(cents) \(currency)"
    }
}
