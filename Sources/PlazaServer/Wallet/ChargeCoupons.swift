import Foundation
import PlazaCore
import SQLKit

/// What the wallet asks of coupons: the offers domain answers it (`OffersCoupons`, wired in `PlazaServices`), so that
/// the wallet knows no campaign and offers touch no ledger. Every call runs inside the charge's own transaction.
protocol ChargeCoupons: Sendable {
    /// Holds the customer's claimed coupon for `charge` and answers what it takes off `subtotal`; 422 `invalid_coupon`
    /// (naming `field`) when it is unknown, used, expired, someone else's, another business's or under its minimum.
    func hold(
        _ coupon: CouponReference,
        customer: UUID,
        business: UUID,
        charge: UUID,
        subtotal: Money,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> ChargeDiscount

    /// The coupons of `business` the customer could put on a charge of `subtotal` now, with what each takes off it:
    /// claimed and unused, or received and not claimed (while they may still claim one), the best first.
    func eligible(
        customer: UUID,
        business: UUID,
        subtotal: Money,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [EligibleCoupon]

    /// The charge was paid (its coupon is redeemed) or ended unpaid (its coupon is free again).
    func settle(charge: UUID, paid: Bool, now: Date, on db: any SQLDatabase) async throws
}

/// A coupon as the counter or the customer names it.
enum CouponReference: Sendable {
    /// The claim's code as typed, or its `plaza:coupon:` QR payload (the counter's `coupon` field).
    case code(String)
    /// The claim's id (the customer picks one of their own).
    case claim(UUID)
    /// An offer the customer received: claimed (or its unused claim reused) and applied at once.
    case offer(UUID)

    var field: String {
        switch self {
        case .code: "coupon"
        case .claim: "claimId"
        case .offer: "offerId"
        }
    }
}
