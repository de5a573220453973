import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Campaigns (owners and staff)

    /// Writes a campaign as a draft; its `findings` are the policy lint's.
    public func createCampaign(business: UUID, _ content: CampaignContent) async throws -> Campaign {
        try await send(
            "POST",
            "v1/businesses/\(business.uuidString.lowercased())/campaigns",
            body: content,
            auth: .required
        )
    }

    /// The business's campaigns, newest first.
    public func campaigns(business: UUID, cursor: String? = nil) async throws -> Page<Campaign> {
        try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/campaigns",
            query: cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [],
            auth: .required
        )
    }

    /// About how many people a campaign of this kind and target would reach now (`people` is nil under 5).
    public func campaignReach(
        business: UUID,
        kind: CampaignKind,
        target: CampaignTarget = CampaignTarget()
    ) async throws -> CampaignReach {
        try await send(
            "POST",
            "v1/businesses/\(business.uuidString.lowercased())/campaigns/reach",
            body: CampaignReachRequest(kind: kind, target: target),
            auth: .required
        )
    }

    public func campaign(_ id: UUID) async throws -> Campaign {
        try await send("GET", "v1/campaigns/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Changes a campaign; a change to a running one waits for review while the approved version runs.
    public func changeCampaign(_ id: UUID, _ change: CampaignChange) async throws -> Campaign {
        try await send("PATCH", "v1/campaigns/\(id.uuidString.lowercased())", body: change, auth: .required)
    }

    /// Sends a draft to an admin (`campaign_refused` with its blocking findings).
    public func submitCampaign(_ id: UUID) async throws -> Campaign {
        try await send("POST", "v1/campaigns/\(id.uuidString.lowercased())/submit", auth: .required)
    }

    public func pauseCampaign(_ id: UUID) async throws -> Campaign {
        try await send("POST", "v1/campaigns/\(id.uuidString.lowercased())/pause", auth: .required)
    }

    public func resumeCampaign(_ id: UUID) async throws -> Campaign {
        try await send("POST", "v1/campaigns/\(id.uuidString.lowercased())/resume", auth: .required)
    }

    /// Pushes an active campaign with manual delivery to the customers in the shop now.
    public func pushCampaign(_ id: UUID) async throws -> CampaignPush {
        try await send("POST", "v1/campaigns/\(id.uuidString.lowercased())/push", auth: .required)
    }

    /// Delivered, opened, claimed, redeemed and the discount given, in total and by day (counts from 1 to 4 are nil).
    public func campaignStats(_ id: UUID) async throws -> CampaignStats {
        try await send("GET", "v1/campaigns/\(id.uuidString.lowercased())/stats", auth: .required)
    }

    // MARK: The customer's offers

    /// The offers that reached me: current ones, or (`history`) used and ended ones; newest first. They arrive live as
    /// `OfferEventType.received` on `events()`.
    public func offers(history: Bool = false, cursor: String? = nil) async throws -> Page<Offer> {
        try await send(
            "GET",
            "v1/me/offers",
            query: Self.query(["state": history ? "history" : "current", "cursor": cursor]),
            auth: .required
        )
    }

    /// My current offers by the business's name or description, and its category.
    public func searchOffers(
        _ text: String? = nil,
        category: BusinessCategory? = nil,
        cursor: String? = nil
    ) async throws -> Page<Offer> {
        try await send(
            "GET",
            "v1/offers/search",
            query: Self.query(["q": text, "category": category?.rawValue, "cursor": cursor]),
            auth: .required
        )
    }

    /// The offers running in town (active campaigns of listed businesses), whether or not they reached me, each saying
    /// whether I may claim it; ending soonest first.
    public func townOffers(
        _ text: String? = nil,
        category: BusinessCategory? = nil,
        cursor: String? = nil
    ) async throws -> Page<TownOffer> {
        try await send(
            "GET",
            "v1/offers/town",
            query: Self.query(["q": text, "category": category?.rawValue, "cursor": cursor]),
            auth: .required
        )
    }

    /// Claims a coupon running in town that its targeting lets me have: it joins my offers, and the claim waits for
    /// the counter (403 `forbidden` when it is not for me).
    public func claimTownOffer(_ id: UUID) async throws -> CouponClaim {
        try await send("POST", "v1/offers/town/\(id.uuidString.lowercased())/claim", auth: .required)
    }

    /// One offer, with why it reached me (the first look counts as opened).
    public func offer(_ id: UUID) async throws -> Offer {
        try await send("GET", "v1/offers/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Dismisses an offer for good; `muteBusiness` keeps all of the business's offers away.
    public func dismissOffer(_ id: UUID, muteBusiness: Bool = false) async throws {
        try await sendVoid(
            "POST",
            "v1/offers/\(id.uuidString.lowercased())/dismiss",
            body: OfferDismissal(muteBusiness: muteBusiness),
            auth: .required
        )
    }

    /// Claims a coupon (or answers the unused claim I hold): its code and QR wait in my wallet for the counter.
    public func claimOffer(_ id: UUID) async throws -> CouponClaim {
        try await send("POST", "v1/offers/\(id.uuidString.lowercased())/claim", auth: .required)
    }

    /// Takes one of my claimed coupons off a charge that waits for me; approve the charge as it now stands.
    public func applyCoupon(_ claim: UUID, to charge: UUID) async throws -> Charge {
        try await send(
            "POST",
            "v1/charges/\(charge.uuidString.lowercased())/coupon",
            body: ApplyCouponRequest(claimId: claim),
            auth: .required
        )
    }

    /// Puts one of a waiting charge's `eligibleCoupons` on it: claimed first when it is an offer I have not claimed.
    public func applyCoupon(_ coupon: EligibleCoupon, to charge: UUID) async throws -> Charge {
        try await send(
            "POST",
            "v1/charges/\(charge.uuidString.lowercased())/coupon",
            body: coupon.claimId.map { ApplyCouponRequest(claimId: $0) } ?? ApplyCouponRequest(offerId: coupon.offerId),
            auth: .required
        )
    }

    // MARK: The customer's control

    public func offerSettings() async throws -> OfferSettings {
        try await send("GET", "v1/me/offer-settings", auth: .required)
    }

    /// Changes the fields set in `change`.
    public func changeOfferSettings(_ change: OfferSettingsChange) async throws -> OfferSettings {
        try await send("PUT", "v1/me/offer-settings", body: change, auth: .required)
    }

    public func subscribe(business: UUID, ads: Bool = true, coupons: Bool = true) async throws -> OfferSubscription {
        try await send(
            "PUT",
            "v1/me/subscriptions/\(business.uuidString.lowercased())",
            body: SubscriptionRequest(ads: ads, coupons: coupons),
            auth: .required
        )
    }

    public func unsubscribe(business: UUID) async throws {
        try await sendVoid("DELETE", "v1/me/subscriptions/\(business.uuidString.lowercased())", auth: .required)
    }

    public func subscriptions(cursor: String? = nil) async throws -> Page<OfferSubscription> {
        try await send(
            "GET",
            "v1/me/subscriptions",
            query: cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [],
            auth: .required
        )
    }
}
