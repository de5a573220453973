import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Whom offers reach, seen from both sides: the estimate a merchant reads while writing a campaign, and a customer's
/// quiet hours kept in their own time zone.
@Suite struct OfferAudienceTests {
    let delivery = OfferDeliveryTests()

    func reach(
        _ client: any TestClientProtocol,
        _ shop: OfferDeliveryTests.Shop,
        _ request: CampaignReachRequest
    ) async throws -> Int? {
        let response = try await client.send(
            .post,
            "/v1/businesses/\(shop.business)/campaigns/reach",
            json: request,
            token: shop.owner
        )
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(CampaignReach.self).people
    }

    /// A customer with this profile and these offer settings (no location needed: the estimate is wherever they are).
    func person(
        _ client: any TestClientProtocol,
        _ name: String,
        born: String,
        student: Bool,
        _ settings: OfferSettingsChange?
    ) async throws
        -> String
    {
        let token = try await AccountsDriver(client).signedIn(name).accessToken
        _ = try await client.send(
            .patch,
            "/v1/me",
            json: ProfileUpdate(birthDate: born, student: student),
            token: token
        )
        if let settings {
            #expect(try await client.send(.put, "/v1/me/offer-settings", json: settings, token: token).status == .ok)
        }
        return token
    }

    @Test(arguments: TestEngine.enabled)
    func theEditorsEstimateCountsOnlyWhoTheTargetCouldReachAndHidesFewerThanFive(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await delivery.shop(client, services)
            let students = CampaignReachRequest(kind: .coupon, target: CampaignTarget(ageMin: 18, studentsOnly: true))
            let allow = OfferSettingsChange(coupons: .nearby, use: TargetingUseChange(age: true, student: true))
            for name in ["eva", "ida", "jon", "kim"] {
                _ = try await person(client, name, born: "2000-03-01", student: true, allow)
            }
            // Not counted: a student who allowed nothing, a 16-year-old (never profiled), one at the default level who
            // has not subscribed (only subscriptions bring her offers), one who muted the shop.
            _ = try await person(
                client,
                "finn",
                born: "2000-03-01",
                student: true,
                OfferSettingsChange(coupons: .nearby)
            )
            let sixteen = Calendar(identifier: .gregorian).date(byAdding: .year, value: -16, to: Date())!
            _ = try await person(client, "gus", born: String(RFC3339.format(sixteen).prefix(10)), student: true, allow)
            let hana = try await person(
                client,
                "hana",
                born: "1999-05-05",
                student: true,
                OfferSettingsChange(use: TargetingUseChange(age: true, student: true))
            )
            var muting = allow
            muting.muted = [shop.business]
            _ = try await person(client, "lea", born: "2000-03-01", student: true, muting)

            // Four people match: fewer than five, so the estimate says nothing.
            #expect(try await reach(client, shop, students) == nil)
            // Hana subscribes: five.
            #expect(
                try await client.send(
                    .put,
                    "/v1/me/subscriptions/\(shop.business)",
                    json: SubscriptionRequest(),
                    token: hana
                ).status == .ok
            )
            #expect(try await reach(client, shop, students) == 5)
            // Untargeted, the minor and the student who allowed nothing count too (place and time reach them): 7, about 5.
            #expect(try await reach(client, shop, CampaignReachRequest(kind: .coupon)) == 5)
            // Ads: everyone else kept the default level, so only the subscriber: fewer than five.
            #expect(try await reach(client, shop, CampaignReachRequest(kind: .ad)) == nil)

            // Only the business's owners and staff may ask.
            let stranger = try await AccountsDriver(client).signedIn("mallory").accessToken
            let refused = try await client.send(
                .post,
                "/v1/businesses/\(shop.business)/campaigns/reach",
                json: students,
                token: stranger
            )
            #expect(refused.status == .forbidden || refused.status == .notFound)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func quietHoursAreKeptInTheCustomersOwnTimeZone(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await delivery.shop(client, services)
            // Quiet for the two hours around now in Auckland, which is eleven to thirteen hours ahead of London's clock.
            var auckland = Calendar(identifier: .gregorian)
            auckland.timeZone = TimeZone(identifier: "Pacific/Auckland")!
            let hour = auckland.component(.hour, from: Date())
            let quiet = QuietHours(
                from: String(format: "%02d:00", (hour + 23) % 24),
                until: String(format: "%02d:00", (hour + 2) % 24)
            )
            var tokens: [String: String] = [:]
            for (name, zone) in [("ana", "Pacific/Auckland"), ("lou", "Europe/London")] {
                let token = try await delivery.customer(
                    client,
                    name,
                    OfferSettingsChange(coupons: .nearby, quietHours: .some(quiet))
                )
                #expect(
                    try await client.send(.patch, "/v1/me", json: ProfileUpdate(timeZone: zone), token: token).status
                        == .ok
                )
                tokens[name] = token
            }
            let coupon = try await delivery.run(CampaignTests.coupon(), at: shop, client)
            for token in tokens.values { try await PlacesDriver(client).move(to: delivery.corner, token: token) }

            // It is night for Ana by her clock: nothing. For Lou the same hours are the middle of her day: the coupon.
            #expect(try await delivery.offers(client, tokens["ana"]!).isEmpty)
            #expect(try await delivery.offers(client, tokens["lou"]!).map(\.id) == [coupon])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theNearbyListAndTheMapCanShowOnlyTheShopsIGetOffersFrom(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let bakery = try await delivery.shop(client, services)
            let places = PlacesDriver(client)
            let (_, cafe, _) = try await places.shop(owner: "carla", name: "Carla's Cafe", at: delivery.corner)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            #expect(
                try await client.send(
                    .put,
                    "/v1/me/subscriptions/\(bakery.business)",
                    json: SubscriptionRequest(),
                    token: anna
                ).status == .ok
            )
            let square = delivery.square
            let near = "/v1/nearby/businesses?latitude=\(square.latitude)&longitude=\(square.longitude)&radius=500"

            let everyone = try await client.send(.get, near).decode(Page<BusinessSummary>.self).items.map(\.id)
            #expect(Set(everyone) == [bakery.business, cafe.id])
            let mine = try await client.send(.get, near + "&subscribed=true", token: anna).decode(
                Page<BusinessSummary>.self
            ).items.map(\.id)
            #expect(mine == [bakery.business])
            #expect(
                try await client.send(.get, near + "&subscribed=true").status == .unauthorized,
                "whose subscriptions? sign in"
            )

            let box =
                "bbox=\(square.longitude - 0.01),\(square.latitude - 0.01),\(square.longitude + 0.01),\(square.latitude + 0.01)"
            let map = try await client.send(.get, "/v1/map?\(box)&subscribed=true", token: anna)
                .decode(GeoJSONFeatureCollection<MapFeatureProperties>.self)
            #expect(map.features.compactMap(\.properties.businessId) == [bakery.business])

            // The pages: the list's box and the map's own GeoJSON, with the browser's cookie.
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            let list = try await browser.get("/places?q=&subscribed=1").text
            #expect(list.contains("Bakery</strong>") && !list.contains("Cafe</strong>"), "\(list)")
            #expect(list.contains(#"name="subscribed" value="1" checked"#))
            let page = try await browser.get("/places/map?subscribed=1").text
            #expect(page.contains(#"data-source="/places/map/subscribed.geojson""#))
            let shops = try await browser.get("/places/map/subscribed.geojson?\(box)").decode(
                GeoJSONFeatureCollection<MapFeatureProperties>.self
            )
            #expect(shops.features.compactMap(\.properties.businessId) == [bakery.business])
        }
    }
}
