import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
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

    /// A listing indexed before these rules (its words only) is found by them once M0042 has written it again.
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
            try await M0042_ListingSearchTerms().apply(on: db, engine: services.database.engine)
            #expect(try await ListingTests.feed(client, market.ben, "?q=beanbag") == ["Bean bag chair"])
            #expect(try await ListingTests.feed(client, market.ben, "?q=city%20bikes") == ["City bike"])
        }
    }
}
