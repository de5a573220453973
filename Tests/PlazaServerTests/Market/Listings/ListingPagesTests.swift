import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A seller changes a listing from its page (issue 39): the price in place, or everything on the edit page; a student
/// who saved it hears of the drop. The page says who sells: rating, member since, sales.
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
    func theSellerDropsThePriceOnTheListingPageAndASaverIsTold(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            try await FollowTests.mailed(client, market.ben)
            let bike = market.listing.id.uuidString.lowercased()
            let page = "/market/listings/\(bike)"
            #expect(try await client.send(.put, "/v1/market/wish-list/\(bike)", token: market.ben).status == .ok)

            let ana = try await Self.browser(client, "ana")
            let mine = try await ana.get(page).text
            #expect(mine.contains("Change the price") && mine.contains(#"value="90.00""#), "\(mine)")
            #expect(mine.contains(#"href="/market/listings/\#(bike)/edit""#))

            // A price that is no price comes back beside the field, with what she typed.
            let wrong = try await ana.submit(page, to: "\(page)/price", ["price": "cheap"])
            let refused = try await ana.follow(wrong).text
            #expect(refused.contains(#"id="listing-new-price-error""#) && refused.contains(#"value="cheap""#))
            #expect(try await FollowTests.alerts(services, "ben").isEmpty)

            let dropped = try await ana.submit(page, to: "\(page)/price", ["price": "75.00"])
            #expect(dropped.headers[.location] == "\(page)?notice=price")
            let shown = try await ana.follow(dropped).text
            #expect(shown.contains("Price changed") && shown.contains(#"<p class="big price" data-price>$75.00</p>"#))
            #expect(try await FollowTests.alerts(services, "ben") == ["City bike now costs $75.00"])

            // The edit page changes the rest too, and a lower price again reaches Ben.
            let form = try await ana.get("\(page)/edit").text
            #expect(form.contains(#"value="City bike""#) && form.contains(#"value="75.00""#))
            let edited = try await ana.submit(
                "\(page)/edit",
                to: "\(page)/edit",
                [
                    "title": "Road bike", "description": "Three gears, new tyres.", "price": "70.00",
                    "category": "other", "condition": "like_new",
                ]
            )
            #expect(edited.headers[.location] == "\(page)?notice=changed")
            let after = try await ana.follow(edited).text
            #expect(
                after.contains(#"<h1 translate="no">Road bike</h1>"#) && after.contains("$70.00")
                    && after.contains("Like new")
            )
            #expect(try await FollowTests.alerts(services, "ben").last == "Road bike now costs $70.00")
            let blank = try await ana.submit("\(page)/edit", to: "\(page)/edit", ["title": "", "price": "70.00"])
            #expect(try await ana.follow(blank).text.contains(#"id="listing-title-error""#))

            // Ben reads the listing, not its seller's forms.
            let ben = try await Self.browser(client, "ben")
            let his = try await ben.get(page).text
            #expect(!his.contains("Change the price") && !his.contains("/edit\""))
            #expect(try await ben.get("\(page)/edit").headers[.location] == page)
        }
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
