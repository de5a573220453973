import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A campaign over time: approved ahead of its start, it starts (reaching subscribers) and ends (its unused coupons
/// expire, its team is told); its statistics withhold small counts.
@Suite struct CampaignLifecycleTests {
    let delivery = OfferDeliveryTests()

    @Test(arguments: TestEngine.enabled)
    func anApprovedCampaignStartsOnTimeAndEndsOnTime(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await delivery.shop(client, services)
            let anna = try await delivery.customer(client, "anna", OfferSettingsChange())
            _ = try await client.send(
                .put,
                "/v1/me/subscriptions/\(shop.business)",
                json: SubscriptionRequest(),
                token: anna
            )
            let now = Date()
            var later = CampaignTests.coupon(title: "Weekend loaves")
            (later.startsAt, later.endsAt) = (now.addingTimeInterval(3_600), now.addingTimeInterval(7_200))
            let id = try await delivery.run(later, at: shop, client)
            #expect(
                try await client.send(.get, "/v1/campaigns/\(id)", token: shop.owner).decode(Campaign.self).state
                    == .approved
            )
            #expect(try await delivery.offers(client, anna).isEmpty, "not before its start")

            #expect(try await services.offers.advanceCampaigns(now: now.addingTimeInterval(3_601)) == 1)
            #expect(
                try await client.send(.get, "/v1/campaigns/\(id)", token: shop.owner).decode(Campaign.self).state
                    == .active
            )
            #expect(try await delivery.offers(client, anna).map(\.id) == [id], "subscribers hear when it starts")
            let claim = try await client.send(.post, "/v1/offers/\(id)/claim", token: anna).decode(CouponClaim.self)

            #expect(try await services.offers.advanceCampaigns(now: now.addingTimeInterval(7_201)) == 1)
            #expect(try await services.offers.advanceCampaigns(now: now.addingTimeInterval(7_202)) == 0, "once")
            #expect(
                try await client.send(.get, "/v1/campaigns/\(id)", token: shop.owner).decode(Campaign.self).state
                    == .ended
            )
            let history = try await delivery.offers(client, anna, "?state=history")
            #expect(
                history.map(\.id) == [id] && history.first?.claim?.id == claim.id
                    && history.first?.claim?.status == .expired
            )
            let subjects = try await AccountsDriver(client).subjects(
                to: "bruno@example.com",
                until: { $0.contains("Your campaign “Weekend loaves” has ended") }
            )
            #expect(subjects.contains("Your campaign “Weekend loaves” has ended"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func statisticsCountByDayAndWithholdFewerThanFive(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await delivery.shop(client, services)
            let id = try await delivery.run(CampaignTests.coupon(), at: shop, client)
            var customers: [String] = []
            for index in 0..<6 {
                let token = try await delivery.customer(client, "walker\(index)", OfferSettingsChange(coupons: .nearby))
                try await PlacesDriver(client).move(to: delivery.corner, token: token)
                customers.append(token)
            }
            for token in customers.prefix(5) { _ = try await client.send(.get, "/v1/offers/\(id)", token: token) }
            for token in customers.prefix(2) {
                _ = try await client.send(.post, "/v1/offers/\(id)/claim", token: token)
            }
            // Opening twice counts once.
            _ = try await client.send(.get, "/v1/offers/\(id)", token: customers[0])

            let response = try await client.send(.get, "/v1/campaigns/\(id)/stats", token: shop.owner)
            #expect(response.status == .ok, "\(response.text)")
            let stats = try response.decode(CampaignStats.self)
            #expect(stats.campaignId == id && stats.currency == "USD")
            #expect(stats.totals.delivered == 6 && stats.totals.opened == 5)
            #expect(stats.totals.claimed == nil, "2 claims: fewer than 5")
            #expect(stats.totals.redeemed == 0 && stats.totals.discountGiven == 0)
            #expect(stats.days.last?.delivered == 6 && stats.days.last?.claimed == nil)
            #expect(response.text.contains("\"claimed\":null"), "withheld figures are null, not absent")
            #expect(try await client.send(.get, "/v1/campaigns/\(id)/stats", token: customers[0]).status == .notFound)
        }
    }
}
