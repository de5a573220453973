import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Offers reaching customers: near the shop (their location update), to subscribers when a campaign starts, and by
/// staff's push to the people in the shop; each once, within the customer's settings; then opened, dismissed, claimed.
@Suite struct OfferDeliveryTests {
    let square = Coordinate(latitude: 48.1374, longitude: 11.5755)
    /// About 80 m north of the square: inside a 150 m reach, outside the shop's 30 m.
    let corner = Coordinate(latitude: 48.1381, longitude: 11.5755)
    /// About 2 km away.
    let faraway = Coordinate(latitude: 48.1554, longitude: 11.5755)

    /// A running campaign of a fresh shop, approved by the admin.
    struct Shop {
        let business: UUID
        let owner: String
        let admin: String
    }

    func shop(
        _ client: any TestClientProtocol,
        _ services: PlazaServices,
        name: String = "Bruno's Bakery"
    ) async throws -> Shop {
        let (tokens, business, _) = try await PlacesDriver(client).shop(
            owner: "bruno",
            name: name,
            category: .grocery,
            at: square,
            radius: 30
        )
        return Shop(
            business: business.id,
            owner: tokens.accessToken,
            admin: try await AdminTests.admin(client, services)
        )
    }

    func run(_ content: CampaignContent, at shop: Shop, _ client: any TestClientProtocol) async throws -> UUID {
        let created = try await client.send(
            .post,
            "/v1/businesses/\(shop.business)/campaigns",
            json: content,
            token: shop.owner
        )
        let id = try created.decode(Campaign.self).id
        let submitted = try await client.send(.post, "/v1/campaigns/\(id)/submit", token: shop.owner)
        #expect(submitted.status == .ok, "\(submitted.text)")
        let item = try await CampaignTests().queueItem(client, admin: shop.admin, campaign: id)
        #expect(
            try await client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: shop.admin).status == .ok
        )
        return id
    }

    func offers(_ client: any TestClientProtocol, _ token: String, _ query: String = "") async throws -> [Offer] {
        let response = try await client.send(.get, "/v1/me/offers\(query)", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(Page<Offer>.self).items
    }

    /// A customer sharing their location, with these offer settings.
    func customer(
        _ client: any TestClientProtocol,
        _ name: String,
        _ settings: OfferSettingsChange
    ) async throws -> String {
        let token = try await PlacesDriver(client).sharingCustomer(name).accessToken
        #expect(try await client.send(.put, "/v1/me/offer-settings", json: settings, token: token).status == .ok)
        return token
    }

    @Test(arguments: TestEngine.enabled)
    func aCustomerWhoWalksByGetsTheCouponOnceAndClaimsItOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(client, services)
            let coupon = try await run(CampaignTests.coupon(), at: shop, client)
            let places = PlacesDriver(client)
            let anna = try await customer(client, "anna", OfferSettingsChange(coupons: .nearby))
            let carla = try await customer(client, "carla", OfferSettingsChange())

            try await places.move(to: faraway, ago: 30, token: anna)
            #expect(try await offers(client, anna).isEmpty)
            try await places.move(to: corner, token: anna)
            try await places.move(to: corner, token: carla)
            let received = try await offers(client, anna)
            #expect(received.map(\.id) == [coupon])
            let offer = try #require(received.first)
            #expect(
                offer.business.name == "Bruno's Bakery" && offer.kind == .coupon && offer.discount?.percentOff == 10
            )
            #expect(
                offer.why.reasons.map(\.criterion) == [.location]
                    && offer.why.text == "you were within 150 m of Bruno's Bakery"
            )
            // Carla left coupons at "subscribed": walking by brings nothing, and the offer is not hers to see.
            #expect(try await offers(client, carla).isEmpty)
            #expect(try await client.send(.get, "/v1/offers/\(coupon)", token: carla).status == .notFound)
            #expect(try await client.send(.post, "/v1/offers/\(coupon)/claim", token: carla).status == .notFound)

            // Walking by again delivers nothing new.
            try await places.move(to: square, token: anna)
            #expect(try await offers(client, anna).count == 1)
            #expect(
                try await client.send(.get, "/v1/offers/\(coupon)", token: anna).decode(Offer.self).title
                    == "Morning bread"
            )

            let first = try await client.send(.post, "/v1/offers/\(coupon)/claim", token: anna)
            #expect(first.status == .created, "\(first.text)")
            let claim = try first.decode(CouponClaim.self)
            #expect(
                claim.status == .claimed && claim.code.count == 8 && claim.qrPayload == "plaza:coupon:\(claim.code)"
            )
            let again = try await client.send(.post, "/v1/offers/\(coupon)/claim", token: anna)
            #expect(again.status == .ok)
            #expect(try again.decode(CouponClaim.self) == claim)
            #expect(try await offers(client, anna).first?.claim == claim)
            #expect(
                try await client.send(.get, "/v1/campaigns/\(coupon)", token: shop.owner).decode(Campaign.self).claimed
                    == 1
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func profileTargetsReachOnlyAdultsWhoAllowedThem(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(client, services)
            var students = CampaignTests.coupon(
                title: "Student breakfast",
                target: CampaignTarget(ageMin: 18, studentsOnly: true)
            )
            students.schedule = nil
            let campaign = try await run(students, at: shop, client)
            let places = PlacesDriver(client)
            let allow = OfferSettingsChange(coupons: .nearby, use: TargetingUseChange(age: true, student: true))
            // An adult student who allowed both facts; one who allowed none; a 16-year-old student who allowed both.
            let eva = try await customer(client, "eva", allow)
            _ = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(birthDate: "2000-03-01", student: true),
                token: eva
            )
            let finn = try await customer(client, "finn", OfferSettingsChange(coupons: .nearby))
            _ = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(birthDate: "2000-03-01", student: true),
                token: finn
            )
            let gus = try await customer(client, "gus", allow)
            let sixteen = Calendar(identifier: .gregorian).date(byAdding: .year, value: -16, to: Date())!
            let birth = String(RFC3339.format(sixteen).prefix(10))
            _ = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(birthDate: birth, student: true),
                token: gus
            )

            for token in [eva, finn, gus] { try await places.move(to: corner, token: token) }
            let evas = try await offers(client, eva)
            #expect(evas.map(\.id) == [campaign])
            #expect(Set(evas.first?.why.reasons.map(\.criterion) ?? []) == [.age, .student, .location])
            #expect(evas.first?.why.text.contains("you are a student") == true)
            #expect(try await offers(client, finn).isEmpty)
            #expect(try await offers(client, gus).isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func subscribersHearWhenItStartsAndTheDailyLimitHolds(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(client, services)
            let anna = try await customer(client, "anna", OfferSettingsChange(maxPerDay: 1))
            let subscribed = try await client.send(
                .put,
                "/v1/me/subscriptions/\(shop.business)",
                json: SubscriptionRequest(),
                token: anna
            )
            #expect(subscribed.status == .ok)

            // Wherever she is, a subscriber hears of a campaign when it starts: once a day at most, as she chose.
            let first = try await run(CampaignTests.coupon(title: "Morning bread"), at: shop, client)
            var ad = CampaignTests.coupon(title: "New rye")
            (ad.kind, ad.discount, ad.totalRedemptions) = (.ad, nil, nil)
            _ = try await run(ad, at: shop, client)
            let received = try await offers(client, anna)
            #expect(received.map(\.id) == [first])
            #expect(received.first?.why.reasons.map(\.criterion) == [.subscription])

            // The inbox lists it, linking to the offer's page; once dismissed it leaves the inbox too.
            let inbox = try await client.send(.get, "/v1/inbox", token: anna).decode(InboxPage.self)
            let entry = try #require(inbox.items.first { $0.kind == .offerReceived })
            #expect(
                entry.referenceId == first && entry.title == "Bruno's Bakery: Morning bread"
                    && entry.link == "/offers/\(first.uuidString.lowercased())"
            )
            #expect(entry.unread && inbox.unreadCount >= 1)
            #expect(
                try await client.send(
                    .post,
                    "/v1/inbox/seen",
                    json: MarkInboxSeenRequest(through: inbox.seenMarker),
                    token: anna
                ).status
                    == .noContent
            )
            #expect(try await client.send(.get, "/v1/inbox", token: anna).decode(InboxPage.self).unreadCount == 0)

            // Dismissed, it never comes back; muting the business keeps its offers away.
            let dismissed = try await client.send(
                .post,
                "/v1/offers/\(first)/dismiss",
                json: OfferDismissal(muteBusiness: true),
                token: anna
            )
            #expect(dismissed.status == .noContent)
            #expect(try await offers(client, anna).isEmpty)
            #expect(try await client.send(.get, "/v1/offers/\(first)", token: anna).status == .notFound)
            #expect(
                try await client.send(.get, "/v1/inbox", token: anna).decode(InboxPage.self).items.allSatisfy {
                    $0.kind != .offerReceived
                }
            )
            let settings = try await client.send(.get, "/v1/me/offer-settings", token: anna).decode(OfferSettings.self)
            #expect(settings.muted == [shop.business])
            try await PlacesDriver(client).move(to: corner, token: anna)
            #expect(try await offers(client, anna).isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func staffPushToThePeopleInTheShopAndSearchFindsTheOffer(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await shop(client, services)
            var manual = CampaignTests.coupon(title: "Today's loaf")
            manual.delivery = [.manual]
            let campaign = try await run(manual, at: shop, client)
            let anna = try await customer(client, "anna", OfferSettingsChange(coupons: .nearby))
            let carla = try await customer(client, "carla", OfferSettingsChange(coupons: OfferLevel.none))
            // Manual only: walking in delivers nothing until staff push it.
            for token in [anna, carla] { try await PlacesDriver(client).move(to: square, token: token) }
            #expect(try await offers(client, anna).isEmpty)
            let pushed = try await client.send(.post, "/v1/campaigns/\(campaign)/push", token: shop.owner)
            #expect(pushed.status == .accepted, "\(pushed.text)")
            #expect(
                try pushed.decode(CampaignPush.self) == CampaignPush(campaignId: campaign, present: 2, delivered: 1)
            )
            #expect(try await offers(client, anna).map(\.id) == [campaign])
            #expect(try await offers(client, carla).isEmpty)
            let twice = try await client.send(.post, "/v1/campaigns/\(campaign)/push", token: shop.owner).decode(
                CampaignPush.self
            )
            #expect(twice.delivered == 0)
            #expect(try await client.send(.post, "/v1/campaigns/\(campaign)/push", token: anna).status == .notFound)

            let search = { (query: String) in
                try await client.send(.get, "/v1/offers/search\(query)", token: anna).decode(Page<Offer>.self)
            }
            #expect(try await search("?q=bruno").items.map(\.id) == [campaign])
            #expect(try await search("?q=bakery&category=grocery").items.map(\.id) == [campaign])
            #expect(try await search("?category=cafe").items.isEmpty)
            #expect(try await search("?q=50%25").items.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theLastThreeCouponsGoToThreeOfFiftyRacingCustomers(_ engine: TestEngine) async throws {
        // Fifty sign-ups from one address: past the usual limits of one household.
        let limits: (inout PlazaConfiguration) -> Void = {
            ($0.limits.signupsPerAddress, $0.limits.codeMailsPerAddress) = (100, 100)
        }
        try await TestPlaza.withApp(engine, configure: limits) { client, services in
            let shop = try await shop(client, services)
            var scarce = CampaignTests.coupon(title: "Three loaves")
            scarce.totalRedemptions = 3
            let campaign = try await run(scarce, at: shop, client)
            var tokens: [String] = []
            for index in 0..<50 {
                let token = try await customer(client, "racer\(index)", OfferSettingsChange(coupons: .nearby))
                try await PlacesDriver(client).move(to: corner, token: token)
                tokens.append(token)
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for token in tokens {
                    group.addTask { try await client.send(.post, "/v1/offers/\(campaign)/claim", token: token).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 3)
            #expect(statuses.filter { $0 == .conflict }.count == 47)
            #expect(
                try await client.send(.get, "/v1/campaigns/\(campaign)", token: shop.owner).decode(Campaign.self)
                    .claimed == 3
            )
            let late = try await client.send(.post, "/v1/offers/\(campaign)/claim", token: tokens[0])
            #expect([.ok, .conflict].contains(late.status))
            if late.status == .conflict { #expect(late.problem?.code == .offerExhausted) }
        }
    }

    @Test(arguments: TestEngine.enabled)
    func anOfferReachesTheCustomersBrowserAsAPushThatOpensIt(_ engine: TestEngine) async throws {
        let receiver = try await WebPushReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPlaza.withApp(engine, .live, configure: { $0.push.hosts = [receiver.origin] }) {
            client,
            services in
            let shop = try await shop(client, services)
            let coupon = try await run(CampaignTests.coupon(), at: shop, client)
            let anna = try await customer(client, "anna", OfferSettingsChange(coupons: .nearby))
            let subscription = receiver.subscribe()
            let registered = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .webpush, subscription: subscription, name: "Anna's phone"),
                token: anna
            )
            #expect(registered.status == .created)
            try await PlacesDriver(client).move(to: corner, token: anna)
            let payload = try #require(try await receiver.waitFor(1, to: subscription).first).payload()
            #expect(payload.kind == .offers && payload.title == "Bruno's Bakery: Morning bread")
            #expect(payload.link == "/offers/\(coupon.uuidString.lowercased())", "a tap opens the offer itself")
            #expect(receiver.failures.isEmpty)
        }
    }
}
