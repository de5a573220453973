import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaClient
import PlazaCore
import PlazaTestSupport
import Testing

/// Offers with the SDK: a merchant's app writes a coupon, the customer's phone receives it live near the shop, claims it
/// and applies it to the counter's charge; the merchant reads the figures, the customer dismisses and mutes.
@Suite struct OffersClientTests {
    let shop = Coordinate(latitude: 45.4642, longitude: 9.1900)

    /// The Gelateria at the Duomo, and the coupon it runs ("Two scoops", 1.50 off, 200 m).
    func gelateria(_ bruno: PlazaClient) async throws -> (Business, CampaignContent) {
        let business = try await bruno.createBusiness(CreateBusinessRequest(name: "Gelateria", category: .cafe))
        _ = try await bruno.addLocation(
            to: business.id,
            LocationRequest(
                name: "Duomo",
                address: "Piazza del Duomo",
                latitude: shop.latitude,
                longitude: shop.longitude
            )
        )
        let content = CampaignContent(
            kind: .coupon,
            title: "Two scoops",
            body: "1.50 off two scoops",
            startsAt: Date().addingTimeInterval(-60),
            endsAt: Date().addingTimeInterval(86_400),
            target: CampaignTarget(radiusMeters: 200),
            delivery: [.automatic, .manual],
            discount: CouponDiscount(amountOff: Money(amount: 150, currency: "USD")),
            totalRedemptions: 100
        )
        return (business, content)
    }

    @Test(arguments: TestEngine.enabled)
    func aCouponReachesThePhoneLiveAndIsTakenOffTheCountersCharge(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, accounts in
            let (business, content) = try await gelateria(bruno)
            let draft = try await bruno.createCampaign(business: business.id, content)
            #expect(draft.findings.isEmpty)
            #expect(try await bruno.submitCampaign(draft.id).state == .submitted)
            let admin = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let queue = try await accounts.client.send(.get, "/v1/admin/review-queue?kind=campaign", token: admin)
                .decode(Page<ReviewItem>.self)
            let item = try #require(queue.items.first { $0.subjectId == draft.id })
            #expect(
                try await accounts.client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: admin).status
                    == .ok
            )
            #expect(try await bruno.campaign(draft.id).state == .active)

            _ = try await anna.changeOfferSettings(OfferSettingsChange(coupons: .nearby))
            let reach = try await bruno.campaignReach(
                business: business.id,
                kind: .coupon,
                target: CampaignTarget(radiusMeters: 200)
            )
            #expect(reach.people == nil, "one person matches: fewer than five is not told")
            try await anna.setLocationSharing(.merchants)
            var events = anna.events().makeAsyncIterator()
            #expect(try await events.next()?.type == PlazaEventType.ready)
            try await anna.uploadLocations([
                LocationPoint(latitude: shop.latitude, longitude: shop.longitude, accuracy: 5, recordedAt: Date())
            ])
            var received: Offer?
            for _ in 0..<5 where received == nil {
                guard let event = try await events.next() else { break }
                if event.type == OfferEventType.received { received = try event.payload(as: Offer.self) }
            }
            #expect(received?.id == draft.id && received?.why.reasons.map(\.criterion) == [.location])
            #expect(try await anna.offers().items.map(\.id) == [draft.id])
            #expect(try await anna.searchOffers("gelat").items.map(\.id) == [draft.id])
            #expect(try await anna.offer(draft.id).business.name == "Gelateria")
            let claim = try await anna.claimOffer(draft.id)
            #expect(try await anna.claimOffer(draft.id) == claim, "claiming again answers the same claim")

            let annaToken = try await accounts.login("anna").decode(TokenResponse.self).accessToken
            try await WalletDriver(accounts.client).fund(1_000, token: annaToken)
            let charge = try await bruno.createCharge(
                CreateChargeRequest(businessId: business.id, customer: "anna", amount: 400, currency: "USD")
            )
            // The waiting charge lists her claimed coupon, with what it takes off this charge.
            let best = try #require(try await anna.charge(charge.id).eligibleCoupons?.first)
            #expect(best.claimId == claim.id && best.discountAmount == 150)
            let discounted = try await anna.applyCoupon(best, to: charge.id)
            #expect(
                discounted.amount == 250 && discounted.subtotal == 400 && discounted.discount?.title == "Two scoops"
            )
            _ = try await anna.approve(discounted)
            #expect(try await anna.receipt(charge.id).discount?.amount == 150)
            #expect(try await anna.offers(history: true).items.first?.claim?.status == .redeemed)

            let stats = try await bruno.campaignStats(draft.id)
            #expect(
                stats.totals.delivered == nil && stats.totals.redeemed == nil && stats.totals.discountGiven == nil,
                "one customer: withheld"
            )
            #expect(try await bruno.pushCampaign(draft.id).delivered == 0, "she had it already")
            try await anna.dismissOffer(draft.id, muteBusiness: true)
            #expect(try await anna.offerSettings().muted == [business.id])
        }
    }

    /// Issue 39: the phone browses what runs in town, not only what reached it, and claims a coupon from there.
    @Test(arguments: TestEngine.enabled)
    func thePhoneBrowsesTheTownsOffersAndClaimsOne(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, accounts in
            let (business, content) = try await gelateria(bruno)
            let draft = try await bruno.createCampaign(business: business.id, content)
            _ = try await bruno.submitCampaign(draft.id)
            let admin = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let queue = try await accounts.client.send(.get, "/v1/admin/review-queue?kind=campaign", token: admin)
                .decode(Page<ReviewItem>.self)
            let item = try #require(queue.items.first { $0.subjectId == draft.id })
            _ = try await accounts.client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: admin)

            #expect(try await anna.searchOffers("gelateria").items.isEmpty)
            let town = try await anna.townOffers("gelateria")
            #expect(town.items.map(\.id) == [draft.id] && town.items[0].claimable && !town.items[0].received)
            let claim = try await anna.claimTownOffer(draft.id)
            #expect(claim.offerId == draft.id && claim.status == .claimed)
            #expect(try await anna.offer(draft.id).claim?.code == claim.code)
        }
    }
}
