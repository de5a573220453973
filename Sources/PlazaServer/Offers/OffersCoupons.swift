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
        case .offer(let id):
            let offered = try await eligible(
                customer: customer,
                business: business,
                subtotal: subtotal,
                now: now,
                on: db
            )
            guard offered.contains(where: { $0.offerId == id }) else {
                throw refuse("This offer cannot lower this charge: pick one of the coupons it lists.")
            }
            let claimed = try await OffersService.claim(id, user: customer, store: store, now: now, on: db)
            found = try await store.claim(id: claimed.claim.id, on: db)
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

    func eligible(
        customer: UUID,
        business: UUID,
        subtotal: Money,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [EligibleCoupon] {
        var found: [EligibleCoupon] = []
        func add(_ campaign: UUID, claim: UUID?, _ content: CampaignContent, endsAt: Date) {
            guard case .success(let off) = OfferRules.discount(content, subtotal: subtotal), off.amount > 0,
                off.amount < subtotal.amount
            else { return }
            found.append(
                EligibleCoupon(
                    offerId: campaign,
                    claimId: claim,
                    title: content.title,
                    discountAmount: off.amount,
                    endsAt: endsAt
                )
            )
        }
        let claimed = try await store.usableClaims(user: customer, business: business, now: now, on: db)
        for usable in claimed { add(usable.campaign, claim: usable.claim, usable.content, endsAt: usable.expiresAt) }
        // Offers that reached them and that they may still claim: none unused already, under their own limit and
        // the campaign's.
        let received = try await store.receivedCoupons(user: customer, business: business, on: db)
            .filter { offer in !claimed.contains { $0.campaign == offer.campaign.id } }
        let claims = try await store.claims(user: customer, campaigns: received.map(\.campaign.id), on: db)
        for offer in received {
            let content = offer.campaign.running
            let mine = claims.filter { $0.campaignId == offer.campaign.id && $0.status != .expired }.count
            guard content.kind == .coupon, now < content.endsAt, mine < (content.perCustomer ?? 1),
                content.totalRedemptions.map({ offer.campaign.claimed < $0 }) ?? true
            else { continue }
            add(offer.campaign.id, claim: nil, content, endsAt: content.endsAt)
        }
        return EligibleCoupon.best(found)
    }

    func settle(charge: UUID, paid: Bool, now: Date, on db: any SQLDatabase) async throws {
        try await store.settle(charge: charge, paid: paid, now: now, on: db)
    }
}
