import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Coupons at the counter: the charge names a claimed coupon (or the customer applies one), the discount comes off the
/// amount to pay, paying redeems the coupon and the receipt shows it; an unpaid charge gives the coupon back.
@Suite struct CouponChargeTests {
    let delivery = OfferDeliveryTests()

    /// Bruno's running coupon (10 % off from $5.00, at most $2.00), claimed by Anna, who is in the shop with $50.
    func claimed(
        _ client: any TestClientProtocol,
        _ services: PlazaServices
    ) async throws
        -> (shop: OfferDeliveryTests.Shop, campaign: UUID, anna: String, claim: CouponClaim)
    {
        let shop = try await delivery.shop(client, services)
        var coupon = CampaignTests.coupon(title: "Ten off bread")
        coupon.minimumSpend = Money(amount: 500, currency: "USD")
        coupon.maxDiscount = Money(amount: 200, currency: "USD")
        let campaign = try await delivery.run(coupon, at: shop, client)
        let anna = try await delivery.customer(client, "anna", OfferSettingsChange(coupons: .nearby))
        try await PlacesDriver(client).move(to: delivery.square, token: anna)
        try await WalletDriver(client).fund(5_000, token: anna)
        let claim = try await client.send(.post, "/v1/offers/\(campaign)/claim", token: anna).decode(CouponClaim.self)
        return (shop, campaign, anna, claim)
    }

    @Test(arguments: TestEngine.enabled)
    func theCounterTakesTheCouponOffAndPayingRedeemsItOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, campaign, anna, claim) = try await claimed(client, services)
            let wallet = WalletDriver(client)
            let items = [ChargeItem(description: "Sourdough", quantity: 2, unitAmount: 600)]
            let created = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                1_200,
                items: items,
                coupon: claim.qrPayload,
                token: shop.owner
            )
            #expect(created.status == .created, "\(created.text)")
            let charge = try created.decode(Charge.self)
            #expect(charge.amount == 1_080 && charge.subtotal == 1_200)
            #expect(
                charge.discount
                    == ChargeDiscount(amount: 120, claimId: claim.id, campaignId: campaign, title: "Ten off bread")
            )
            // Held by this charge, the coupon cannot pay another.
            let again = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                900,
                coupon: claim.code,
                token: shop.owner
            )
            #expect(again.status == .unprocessableContent && again.problem?.code == .invalidCoupon)
            #expect(again.problem?.errors?.map(\.field) == ["coupon"])

            #expect(try await wallet.approve(charge, token: anna).status == .ok)
            #expect(try await wallet.balance(token: anna) == 5_000 - 1_080)
            let receipt = try await client.send(.get, "/v1/charges/\(charge.id)/receipt", token: anna).decode(
                Receipt.self
            )
            #expect(receipt.amount == 1_080 && receipt.subtotal == 1_200 && receipt.discount?.title == "Ten off bread")
            let history = try await client.send(.get, "/v1/me/offers?state=history", token: anna).decode(
                Page<Offer>.self
            )
            #expect(history.items.first?.id == campaign && history.items.first?.claim?.status == .redeemed)
            #expect(
                try await client.send(.get, "/v1/me/offers", token: anna).decode(Page<Offer>.self).items.isEmpty,
                "used: no longer current"
            )
            let used = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                900,
                coupon: claim.code,
                token: shop.owner
            )
            #expect(used.problem?.code == .invalidCoupon)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCouponUnderItsMinimumOrUnpaidStaysTheCustomers(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, _, anna, claim) = try await claimed(client, services)
            let wallet = WalletDriver(client)
            let small = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                400,
                coupon: claim.code,
                token: shop.owner
            )
            #expect(small.status == .unprocessableContent && small.problem?.code == .invalidCoupon)
            #expect(small.problem?.errors?.first?.message == "This coupon needs a purchase of at least 5.00 USD.")
            let unknown = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                900,
                coupon: "NOPE2345",
                token: shop.owner
            )
            #expect(unknown.problem?.code == .invalidCoupon)

            // Declined, the charge gives the coupon back; a big purchase meets the $2.00 cap.
            let declined = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                900,
                coupon: claim.code,
                token: shop.owner
            )
            #expect(try await wallet.end(try declined.decode(Charge.self), "decline", token: anna).status == .ok)
            let big = try await wallet.charge(
                business: shop.business,
                customer: "anna",
                5_000,
                coupon: claim.code,
                token: shop.owner
            )
            #expect(big.status == .created, "\(big.text)")
            #expect(try big.decode(Charge.self).amount == 4_800)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theCustomerAppliesTheirCouponToAChargeThatWaits(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (shop, _, anna, claim) = try await claimed(client, services)
            let wallet = WalletDriver(client)
            let charge = try await wallet.charge(business: shop.business, customer: "anna", 1_000, token: shop.owner)
                .decode(Charge.self)
            let carla = try await delivery.customer(client, "carla", OfferSettingsChange())
            #expect(
                try await client.send(
                    .post,
                    "/v1/charges/\(charge.id)/coupon",
                    json: ApplyCouponRequest(claimId: claim.id),
                    token: carla
                ).status
                    == .notFound
            )
            let applied = try await client.send(
                .post,
                "/v1/charges/\(charge.id)/coupon",
                json: ApplyCouponRequest(claimId: claim.id),
                token: anna
            )
            #expect(applied.status == .ok, "\(applied.text)")
            let discounted = try applied.decode(Charge.self)
            #expect(
                discounted.amount == 900 && discounted.subtotal == 1_000 && discounted.discount?.claimId == claim.id
            )
            let twice = try await client.send(
                .post,
                "/v1/charges/\(charge.id)/coupon",
                json: ApplyCouponRequest(claimId: claim.id),
                token: anna
            )
            #expect(twice.status == .conflict && twice.problem?.code == .stateConflict)
            // What was shown before the coupon is no longer what is asked.
            #expect(try await wallet.approve(charge, token: anna).problem?.code == .approvalMismatch)
            #expect(try await wallet.approve(discounted, token: anna).status == .ok)
            #expect(try await wallet.balance(token: anna) == 5_000 - 900)
        }
    }

    @Test func theChargePageOffersTheCustomersCouponsOfThatShop() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, services in
            let (shop, _, _, _) = try await claimed(client, services)
            _ = try await WalletDriver(client).charge(
                business: shop.business,
                customer: "anna",
                1_000,
                token: shop.owner
            )
            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            let charges = try await page.get("/wallet/charges").text
            #expect(
                charges.contains("Coupons that lower this charge") && charges.contains("Ten off bread: −$1.00")
                    && charges.contains("You pay $9.00.")
            )
            let claim = try #require(
                charges.range(of: #"name="coupon" value=""#).map { String(charges[$0.upperBound...].prefix(42)) }
            )
            #expect(claim.hasPrefix("claim:") && charges.contains(#"value="\#(claim)" checked"#), "the best is picked")
            let form = try #require(
                charges.range(of: #"action="/wallet/charges/"#).map { String(charges[$0.upperBound...].prefix(36)) }
            )
            let applied = try await page.follow(
                try await page.post(
                    "/wallet/charges/\(form)/coupon",
                    ["coupon": claim],
                    csrf: PageSession.csrfToken(in: charges)
                )
            ).text
            #expect(
                applied.contains("Coupon applied") && applied.contains("Pay $9.00") && applied.contains("(was $10.00)")
            )
            #expect(!applied.contains("Coupons that lower this charge"), "one coupon per charge")
        }
    }
}
