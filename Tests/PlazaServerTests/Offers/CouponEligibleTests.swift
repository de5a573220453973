import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The best coupon meets the charge (issue 39): a charge waiting for its customer lists the coupons that could lower
/// it, claimed or only received, the largest discount first; an offer is claimed and applied in one step.
extension CouponChargeTests {
    /// Anna holds "Ten off bread" claimed ($1.00 off $10.00) and has received "Two off a cake" ($2.00), unclaimed.
    func twoCoupons(
        _ client: any TestClientProtocol,
        _ services: PlazaServices
    ) async throws -> (shop: OfferDeliveryTests.Shop, bread: UUID, cake: UUID, anna: String, claim: CouponClaim) {
        let (shop, bread, anna, claim) = try await claimed(client, services)
        var content = CampaignTests.coupon(title: "Two off a cake")
        content.discount = CouponDiscount(amountOff: Money(amount: 200, currency: "USD"))
        let cake = try await delivery.run(content, at: shop, client)
        let settings = OfferSettingsChange(maxPerDay: 5)
        #expect(try await client.send(.put, "/v1/me/offer-settings", json: settings, token: anna).status == .ok)
        // Staff push it to the people in the shop: she is there.
        let pushed = try await client.send(.post, "/v1/campaigns/\(cake)/push", token: shop.owner)
        #expect(pushed.status == .accepted, "\(pushed.text)")
        #expect(try await delivery.offers(client, anna).contains { $0.id == cake }, "the cake coupon reached her")
        return (shop, bread, cake, anna, claim)
    }

    @Test(arguments: TestEngine.enabled)
    func aWaitingChargeListsItsCouponsAndOneTapClaimsAndAppliesAnOffer(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, bread, cake, anna, claim) = try await twoCoupons(client, services)
            let wallet = WalletDriver(client)
            let made = try await wallet.charge(business: shop.business, customer: "anna", 1_000, token: shop.owner)
            let charge = try made.decode(Charge.self)
            #expect(charge.eligibleCoupons == nil && !made.text.contains("eligibleCoupons"), "not for the business")

            let seen = try await client.send(.get, "/v1/charges/\(charge.id)", token: anna)
            let listed = try seen.decode(Charge.self).eligibleCoupons ?? []
            #expect(listed.map(\.offerId) == [cake, bread], "the largest discount first")
            #expect(listed.map(\.discountAmount) == [200, 100] && listed.map(\.claimId) == [nil, claim.id])
            #expect(seen.text.contains(#""claimId":null"#), "an unclaimed offer says so")
            let mine = try await client.send(.get, "/v1/me/charges?status=pending", token: anna)
                .decode(Page<Charge>.self).items
            #expect(mine.first { $0.id == charge.id }?.eligibleCoupons == listed)

            let path = "/v1/charges/\(charge.id)/coupon"
            let both = try await client.sendRaw(
                .post,
                path,
                body: #"{"claimId":"\#(claim.id)","offerId":"\#(cake)"}"#,
                token: anna
            )
            #expect(both.status == .unprocessableContent && both.problem?.code == .validationFailed, "\(both.text)")
            let neither = try await client.sendRaw(.post, path, body: "{}", token: anna)
            #expect(neither.status == .unprocessableContent && neither.problem?.code == .validationFailed)
            let unknown = try await client.send(.post, path, json: ApplyCouponRequest(offerId: UUID()), token: anna)
            #expect(
                unknown.problem?.code == .invalidCoupon && unknown.problem?.errors?.map(\.field) == ["offerId"],
                "\(unknown.text)"
            )

            let applied = try await client.send(.post, path, json: ApplyCouponRequest(offerId: cake), token: anna)
            #expect(applied.status == .ok, "\(applied.text)")
            let discounted = try applied.decode(Charge.self)
            #expect(discounted.amount == 800 && discounted.discount?.campaignId == cake)
            #expect(discounted.eligibleCoupons == [], "one coupon per charge")
            let offer = try await client.send(.get, "/v1/offers/\(cake)", token: anna).decode(Offer.self)
            #expect(offer.claim?.id == discounted.discount?.claimId, "applying claimed it")
            #expect(try await wallet.approve(discounted, token: anna).status == .ok)
            #expect(try await wallet.balance(token: anna) == 5_000 - 800)
            #expect(try await services.verify(recheckAfter: .zero).findings.isEmpty)
        }
    }

    /// Two waiting charges, one offer for one coupon per customer, applied to both at once: one gets it.
    @Test(arguments: TestEngine.enabled)
    func anOfferAppliedToTwoChargesAtOnceLowersOne(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, _, cake, anna, _) = try await twoCoupons(client, services)
            let wallet = WalletDriver(client)
            var charges: [Charge] = []
            for amount: Int64 in [1_000, 1_200] {
                charges.append(
                    try await wallet.charge(business: shop.business, customer: "anna", amount, token: shop.owner)
                        .decode(Charge.self)
                )
            }
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for charge in charges {
                    group.addTask {
                        try await client.send(
                            .post,
                            "/v1/charges/\(charge.id)/coupon",
                            json: ApplyCouponRequest(offerId: cake),
                            token: anna
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == .ok }.count == 1, "\(answers.map(\.text))")
            #expect(answers.contains { $0.problem?.code == .invalidCoupon }, "\(answers.map(\.text))")
            #expect(try await services.verify(recheckAfter: .zero).findings.isEmpty)
        }
    }
}
