import Foundation

/// `POST /v1/charges/{id}/coupon`: the customer puts a coupon on a charge that waits for them: one they claimed
/// (`claimId`), or an offer they received and have not claimed yet (`offerId`: claimed and applied at once). Exactly one
/// of the two.
public struct ApplyCouponRequest: Codable, Sendable, Hashable {
    public var claimId: UUID?
    public var offerId: UUID?

    public init(claimId: UUID) {
        self.claimId = claimId
    }

    public init(offerId: UUID) {
        self.offerId = offerId
    }

    public init(claimId: UUID?, offerId: UUID?) {
        self.claimId = claimId
        self.offerId = offerId
    }
}

/// A coupon that could lower a charge waiting for its customer, with what it would take off this charge.
public struct EligibleCoupon: Codable, Sendable, Hashable {
    public var offerId: UUID
    /// The customer's claim of it; nil for an offer they received and have not claimed (applying it claims it).
    public var claimId: UUID?
    public var title: String
    /// What it takes off this charge, in the charge's currency's minor units.
    public var discountAmount: Int64
    public var endsAt: Date

    public init(offerId: UUID, claimId: UUID?, title: String, discountAmount: Int64, endsAt: Date) {
        self.offerId = offerId
        self.claimId = claimId
        self.title = title
        self.discountAmount = discountAmount
        self.endsAt = endsAt
    }

    enum CodingKeys: String, CodingKey { case offerId, claimId, title, discountAmount, endsAt }

    /// `claimId` is written as null when there is none: the contract says so.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offerId, forKey: .offerId)
        try container.encode(claimId, forKey: .claimId)
        try container.encode(title, forKey: .title)
        try container.encode(discountAmount, forKey: .discountAmount)
        try container.encode(endsAt, forKey: .endsAt)
    }

    /// The best first: the largest discount, then one already claimed, then the one ending soonest.
    public static func best(_ coupons: [EligibleCoupon]) -> [EligibleCoupon] {
        coupons.sorted {
            if $0.discountAmount != $1.discountAmount { return $0.discountAmount > $1.discountAmount }
            if ($0.claimId == nil) != ($1.claimId == nil) { return $0.claimId != nil }
            return $0.endsAt < $1.endsAt
        }
    }
}
