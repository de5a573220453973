import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Search by words finds what a student means, not only the exact words typed (issue 39): stems, the start of a word,
/// and compounds joined or split, the same on both engines.
@Suite struct ListingSearchTests {
    @Test(arguments: TestEngine.enabled)
    func beanbagsBeanBagAndBeanbagFindEachOther(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            for title in ["Beanbag", "Two beanbags", "Bean bag chair", "Running shoes", "Boxes of puppies"] {
                _ = try await FollowTests.post(client, market.ana, title)
            }
            let find = { (words: String) in
                Set(try await ListingTests.feed(client, market.ben, "?\(FormData.encoded([("q", words)]))"))
            }
            let beanbags: Set = ["Beanbag", "Two beanbags", "Bean bag chair"]
            #expect(try await find("beanbag") == beanbags, "\"Bean bag chair\" too: the pair is indexed joined")
            #expect(try await find("beanbags") == beanbags)
            #expect(try await find("bean bag") == beanbags, "the query's pair is tried joined")
            #expect(try await find("Bean Bags") == beanbags)
            #expect(try await find("bean ba") == beanbags, "the last word as it is being typed")
            #expect(try await find("bean bag chairs") == ["Bean bag chair"])
            #expect(try await find("beanbag chair") == ["Bean bag chair"])
            #expect(try await find("run shoe") == ["Running shoes"], "stems: -ing and plurals")
            #expect(try await find("puppy box") == ["Boxes of puppies"], "-ies and -es")
            #expect(try await find("bicycle").isEmpty)
            #expect(try await find("bag city").isEmpty, "every word must match")
        }
    }

    /// A rare word's few matches are read through the words' index and sorted, and a common word's many (more than
    /// `ListingStore.drivenLimit`) walk the feed's order (issue 43): either way a page holds the newest (or cheapest)
    /// matches in order, the next page goes on from there, and an edited listing is found by its new words only.
    @Test(arguments: TestEngine.enabled)
    func aCommonWordAndARareOneBothPageInTheFeedsOrder(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let ana = try await client.send(.get, "/v1/me", token: market.ana).decode(User.self).id
            let campus = try #require(
                try await services.database.sql.raw("SELECT id FROM campuses").first()?.decode(
                    column: "id",
                    as: UUID.self
                )
            )
            let now = Date()
            let common = ListingStore.drivenLimit + 40
            let item = { (title: String, index: Int, price: Int64) in
                ImportedListing(
                    seller: ana,
                    title: title,
                    description: "In good shape.",
                    price: price,
                    category: "other",
                    condition: .good,
                    createdAt: now.addingTimeInterval(-Double(index) * 60 - 600)
                )
            }
            // Lamps' prices repeat every 50, so a price order needs its newest-first tie-break.
            let lamps = (0..<common).map { item("Desk lamp \($0)", $0, Int64($0 % 50 + 1) * 100) }
            let kettles = (0..<3).map { item("Kettle \($0)", $0 * 7, 1_000) }
            _ = try await services.market.importListings(kettles + lamps, campus: campus)

            let page = { (query: String) in
                let response = try await client.send(.get, "/v1/market/listings?\(query)", token: market.ben)
                #expect(response.status == .ok, "\(response.text)")
                return try response.decode(Page<Listing>.self)
            }
            let first = try await page("q=lamp&limit=20")
            #expect(first.items.map(\.title) == (0..<20).map { "Desk lamp \($0)" })
            let cursor = try #require(first.nextCursor)
            let second = try await page("q=lamp&limit=20&cursor=\(cursor)")
            #expect(second.items.map(\.title) == (20..<40).map { "Desk lamp \($0)" })
            // Cheapest first: the ten lamps at $1 (0, 50, 100, …), newest first, then the first at $2.
            let cheapest = try await page("q=desk%20lamp&sort=price_asc&limit=8")
            #expect(cheapest.items.map(\.title) == [0, 50, 100, 150, 200, 250, 300, 1].map { "Desk lamp \($0)" })
            #expect(try await page("q=kettle").items.map(\.title) == ["Kettle 0", "Kettle 1", "Kettle 2"])
            #expect(try await page("q=kettle&sort=price_desc&limit=2").items.map(\.title) == ["Kettle 0", "Kettle 1"])
            #expect(try await page("q=lamp%20kettle").items.isEmpty)
            #expect(try await page("q=zebra").items.isEmpty)

            // Each engine remembers "lamp" as a common search and walks the feed for it at once; when all but three lamps
            // are gone, that walk finds exactly those three, in order.
            try await services.database.sql.raw(
                """
                UPDATE listings SET state = 'removed' WHERE title LIKE 'Desk lamp %' \
                AND title NOT IN ('Desk lamp 5', 'Desk lamp 77', 'Desk lamp 300')
                """
            ).run()
            #expect(try await page("q=lamp").items.map(\.title) == ["Desk lamp 5", "Desk lamp 77", "Desk lamp 300"])

            // An edited listing is found by its new words, and no longer by the old.
            let change = ListingChange(title: "Kettle, barely used", description: "Whistles.")
            let edited = try await client.send(
                .patch,
                "/v1/market/listings/\(market.listing.id)",
                json: change,
                token: market.ana
            )
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try await page("q=kettle").items.map(\.title).first == "Kettle, barely used")
            #expect(try await page("q=bike").items.isEmpty)
        }
    }

    /// A listing indexed before these rules (its words only) is found by them once its entry is written again (M0042
    /// on PostgreSQL, M0058 on SQLite).
    @Test(arguments: TestEngine.enabled)
    func listingsIndexedBeforeAreWrittenAgainByTheMigration(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let chair = try await FollowTests.post(client, market.ana, "Bean bag chair")
            let db = services.database.sql
            let old = MarketRules.searchWords("Bean bag chair In good shape. ana Ana", limit: 400).joined(
                separator: " "
            )
            try await ListingStore().index(chair.id, body: old, on: db)
            #expect(try await ListingTests.feed(client, market.ben, "?q=beanbag").isEmpty)
            if services.database.engine == .postgres {
                try await M0042_ListingSearchTerms().apply(on: db, engine: .postgres)
            } else {
                _ = try await ListingStore().reindexAll(on: db) { MarketService.searchBody($0) }
            }
            #expect(try await ListingTests.feed(client, market.ben, "?q=beanbag") == ["Bean bag chair"])
            #expect(try await ListingTests.feed(client, market.ben, "?q=city%20bikes") == ["City bike"])
        }
    }
}
