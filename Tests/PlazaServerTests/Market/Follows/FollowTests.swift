import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Follows, wish lists and saved searches: what each one notifies, how often, and only within the campus.
@Suite struct FollowTests {
    /// The titles of the alerts `username` was sent, oldest first.
    static func alerts(_ services: PlazaServices, _ username: String) async throws -> [String] {
        let db = services.database.sql
        let user = try #require(try await AccountStore().user(login: username, on: db))
        return try await db.select().column("title").from("notifications").where("user_id", .equal, user.id).orderBy(
            "created_at"
        ).all()
            .map { try $0.decode(column: "title", as: String.self) }
    }

    /// `token`'s marketplace alerts go by e-mail too, so that they are kept (an alert with no way to reach anyone is not).
    static func mailed(_ client: any TestClientProtocol, _ token: String) async throws {
        let preferences = NotificationPreferences(
            kinds: [KindPreference(kind: .market, push: true, email: true)],
            quietHours: nil
        )
        #expect(try await client.send(.put, "/v1/me/notifications", json: preferences, token: token).status == .ok)
    }

    static func post(
        _ client: any TestClientProtocol,
        _ token: String,
        _ title: String,
        category: String = "other",
        price: Int64 = 1_000
    )
        async throws -> Listing
    {
        let request = ListingRequest(
            title: title,
            description: "In good shape.",
            price: Money(amount: price, currency: "USD"),
            category: category,
            condition: .good,
            photoIds: [try await ListingTests.photo(client, token)]
        )
        return try await ListingTests.post(client, token, request)
    }

    @Test(arguments: TestEngine.enabled)
    func aFollowedSellersNewListingsAlertAtMostOnceAnHour(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            try await Self.mailed(client, market.cal)
            #expect(
                try await client.send(.put, "/v1/market/follows/cal", token: market.cal).problem?.errors?.map(\.field)
                    == ["username"]
            )
            let followed = try await client.send(.put, "/v1/market/follows/ana", token: market.cal)
            #expect(try followed.decode(MarketFollow.self).username == "ana")
            _ = try await Self.post(client, market.ana, "Desk lamp")
            _ = try await Self.post(client, market.ana, "Kettle")
            let told = try await Self.alerts(services, "cal").filter { $0.contains("listed") }
            #expect(told.count == 1 && told[0].hasSuffix("listed Desk lamp"), "\(told)")
            #expect(
                try await client.send(.get, "/v1/market/follows", token: market.cal).decode(Page<MarketFollow>.self)
                    .items.map(\.username) == ["ana"]
            )
            #expect(try await client.send(.delete, "/v1/market/follows/ana", token: market.cal).status == .noContent)
            #expect(
                try await client.send(.get, "/v1/market/follows", token: market.cal).decode(Page<MarketFollow>.self)
                    .items.isEmpty
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aSavedListingsPriceDropAndSaleAreTold(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            try await Self.mailed(client, market.ben)
            let bike = market.listing.id
            #expect(
                try await client.send(.put, "/v1/market/wish-list/\(bike)", token: market.ana).status
                    == .unprocessableContent,
                "her own"
            )
            let saved = try await client.send(.put, "/v1/market/wish-list/\(bike)", token: market.ben)
            #expect(try saved.decode(WishListEntry.self).listing.id == bike)
            let change = { (amount: Int64) in
                try await client.send(
                    .patch,
                    "/v1/market/listings/\(bike)",
                    json: ListingChange(price: Money(amount: amount, currency: "USD")),
                    token: market.ana
                )
            }
            #expect(try await change(8_000).status == .ok)
            #expect(try await change(8_500).status == .ok)
            #expect(try await change(8_200).status == .ok)
            #expect(
                try await Self.alerts(services, "ben") == ["City bike now costs $80.00"],
                "told once: 82 is above what he was told"
            )
            #expect(
                try await client.send(.post, "/v1/market/listings/\(bike)/sold", json: ListingSale(), token: market.ana)
                    .status == .ok
            )
            #expect(try await Self.alerts(services, "ben").last == "City bike was sold")
            let list = try await client.send(.get, "/v1/market/wish-list", token: market.ben).decode(
                Page<WishListEntry>.self
            ).items
            #expect(list.map(\.listing.state) == [.sold])
            #expect(
                try await client.send(.delete, "/v1/market/wish-list/\(bike)", token: market.ben).status == .noContent
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func savedSearchesAlertAtOnceOrInADailyDigest(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            try await Self.mailed(client, market.cal)
            try await Self.mailed(client, market.ben)
            let empty = try await client.send(
                .post,
                "/v1/market/saved-searches",
                json: SavedSearchRequest(),
                token: market.cal
            )
            #expect(empty.problem?.errors?.map(\.field) == ["q"])
            let instant = try await client.send(
                .post,
                "/v1/market/saved-searches",
                json: SavedSearchRequest(q: "lamp"),
                token: market.cal
            )
            #expect(instant.status == .created)
            let daily = SavedSearchRequest(category: "furniture", maxPrice: 5_000, alert: .daily)
            #expect(
                try await client.send(.post, "/v1/market/saved-searches", json: daily, token: market.ben).status
                    == .created
            )

            _ = try await Self.post(client, market.ana, "Reading lamps, two", category: "dorm_supplies")
            _ = try await Self.post(client, market.ana, "Oak chair", category: "furniture", price: 3_000)
            _ = try await Self.post(client, market.ana, "Sofa", category: "furniture", price: 9_000)
            #expect(try await Self.alerts(services, "cal") == ["New for “lamp”: Reading lamps, two"])
            #expect(try await Self.alerts(services, "ben").isEmpty, "daily: nothing yet")

            // A day later the digest names what matched, once.
            let tomorrow = Date().addingTimeInterval(FollowRules.digestInterval + 60)
            #expect(try await services.market.sendDigests(now: tomorrow) == 1)
            #expect(try await services.market.sendDigests(now: tomorrow) == 0)
            #expect(try await Self.alerts(services, "ben") == ["1 new listing for “furniture”"])
            let mine = try await client.send(.get, "/v1/market/saved-searches", token: market.ben).decode(
                Page<SavedSearch>.self
            ).items
            #expect(mine.map(\.alert) == [.daily])
            #expect(
                try await client.send(.delete, "/v1/market/saved-searches/\(mine[0].id)", token: market.cal).status
                    == .notFound
            )
            #expect(
                try await client.send(.delete, "/v1/market/saved-searches/\(mine[0].id)", token: market.ben).status
                    == .noContent
            )
        }
    }

    /// A week before a student's campus verification runs out they hear of it, once; renewing it reminds them again next time.
    @Test(arguments: TestEngine.enabled)
    func studentsHearOnceThatTheirVerificationRunsOut(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            try await Self.mailed(client, market.ben)
            let ben = try #require(try await AccountStore().user(login: "ben", on: services.database.sql))
            let until = try #require(try await MarketStore().member(user: ben.id, on: services.database.sql))
                .verifiedUntil
            #expect(
                try await services.market.remindExpiringMembers(now: until.addingTimeInterval(-8 * 86_400)) == 0,
                "not yet"
            )
            let told = try await services.market.remindExpiringMembers(now: until.addingTimeInterval(-6 * 86_400))
            #expect(told == 3, "ana, ben and cal share a term end")
            #expect(
                try await services.market.remindExpiringMembers(now: until.addingTimeInterval(-5 * 86_400)) == 0,
                "once"
            )
            #expect(
                try await Self.alerts(services, "ben").contains("Your campus verification ends in 6 days")
            )
        }
    }
}
