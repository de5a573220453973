import Foundation
import PlazaCore
import SQLKit

/// Offers' answer to the wallet's `ChargeCoupons`: a claimed coupon held by a charge, redeemed when it is paid, freed
/// when it ends unpaid. The discount comes from `OfferRules.discount` (the minimum spend, the discount, the cap).
struct OffersCoupons: ChargeCoupons {
    let store = OffersStore()

    func hold(
        _ coupon: CouponReference,
        customer: UUID,
        business: UUID,
        charge: UUID,
        subtotal: Money,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> ChargeDiscount {
        let refuse = { (message: String) in PlazaError.invalidCoupon(field: coupon.field, message) }
        let found: ClaimRecord?
        switch coupon {
        case .code(let text): found = try await store.claim(code: OfferRules.claimCode(text), on: db)
        case .claim(let id): found = try await store.claim(id: id, on: db)
        }
        // Someone else's claim reads as an unknown one: a code says nothing about its holder.
        guard let claim = found, claim.userId == customer else {
            throw refuse("No coupon of this customer has this code.")
        }
        guard claim.status == .claimed, claim.chargeId == nil else { throw refuse("This coupon was used already.") }
        guard let campaign = try await store.campaign(claim.campaignId, on: db), campaign.businessId == business else {
            throw refuse("This coupon is for another business.")
        }
        let content = campaign.running
        guard claim.expiresAt > now, campaign.state != .ended, now < content.endsAt else {
            throw refuse("This coupon has expired.")
        }
        switch OfferRules.discount(content, subtotal: subtotal) {
        case .failure(.belowMinimumSpend(let minimum)):
            throw refuse("This coupon needs a purchase of at least \(minimum).")
        case .failure(.otherCurrency(let currency)): throw refuse("This coupon is for purchases in \(currency).")
        case .failure(.notACoupon): throw refuse("This offer is not a coupon.")
        case .success(let off):
            guard off.amount < subtotal.amount else {
                throw refuse("This coupon would cover the whole purchase; charge it without payment.")
            }
            guard try await store.hold(claim.id, charge: charge, discount: off.amount, on: db) else {
                throw refuse("This coupon was used already.")
            }
            return ChargeDiscount(amount: off.amount, claimId: claim.id, campaignId: campaign.id, title: content.title)
        }
    }

    func settle(charge: UUID, paid: Bool, now: Date, on db: any SQLDatabase) async throws {
        try await store.settle(charge: charge, paid: paid, now: now, on: db)
    }
}
