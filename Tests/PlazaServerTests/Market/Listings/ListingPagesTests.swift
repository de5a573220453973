import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The listing page says who sells (issue 39): their rating, since when they are on Plaza, and their sales.
@Suite struct ListingPagesTests {
    /// `username` signed in to the pages.
    static func browser(_ client: any TestClientProtocol, _ username: String) async throws -> PageSession {
        let browser = PageSession(client)
        let login = try await browser.submit(
            "/login",
            to: "/login",
            ["login": username, "password": AccountsDriver.password]
        )
        #expect(login.status == .seeOther)
        return browser
    }

    /// "November 2026": the month an account made now joined, as an English reader in UTC reads it.
    static var thisMonth: String {
        Date().formatted(Date.FormatStyle(locale: Locale(identifier: "en_US"), timeZone: .gmt).month(.wide).year())
    }

    @Test(arguments: TestEngine.enabled)
    func listingsSayHowTheSellerIsRatedSinceWhenAndHowManySales(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let bike = market.listing.id
            let fresh = try await client.send(.get, "/v1/market/listings/\(bike)", token: market.cal)
            let seller = try fresh.decode(Listing.self).seller
            #expect(seller.rating == RatingSummary(average: nil, count: 0) && seller.sales == 0)
            #expect(abs(try #require(seller.memberSince).timeIntervalSinceNow) < 600)
            let json = try JSONSerialization.jsonObject(with: Data(fresh.text.utf8)) as? [String: Any]
            let rating = (json?["seller"] as? [String: Any])?["rating"] as? [String: Any]
            #expect(rating?["average"] is NSNull, "null without ratings, not left out")
            let cal = try await Self.browser(client, "cal")
            #expect(
                try await cal.get("/market/listings/\(bike)").text.contains(
                    "No ratings yet · member since \(Self.thisMonth) · 0 sales"
                )
            )

            // Ana sells the bike to Ben through Plaza, both rate: her next listing says so, in the feed and on its page.
            try await TrustTests.sold(client, market)
            #expect(try await TrustTests.rate(client, market.ben, bike, 5).status == .created)
            #expect(try await TrustTests.rate(client, market.ana, bike, 4).status == .created)
            let helmet = try await FollowTests.post(client, market.ana, "Helmet")
            _ = try await FollowTests.post(client, market.ben, "Lamp")
            let feed = try await client.send(.get, "/v1/market/listings", token: market.cal).decode(Page<Listing>.self)
            let sellers = Dictionary(uniqueKeysWithValues: feed.items.map { ($0.title, $0.seller) })
            #expect(sellers["Helmet"]?.rating == RatingSummary(average: 5, count: 1) && sellers["Helmet"]?.sales == 1)
            #expect(sellers["Lamp"]?.rating == RatingSummary(average: 4, count: 1) && sellers["Lamp"]?.sales == 0)
            let found = try await client.send(.get, "/v1/market/listings?q=helmet", token: market.cal)
            #expect(try found.decode(Page<Listing>.self).items.first?.seller.sales == 1)
            #expect(
                try await cal.get("/market/listings/\(helmet.id)").text.contains(
                    "★ 5.0 (1) · member since \(Self.thisMonth) · 1 sale"
                )
            )
        }
    }
}
