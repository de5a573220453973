import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Answers to offers under races (issue 36): a listing is reserved for one buyer however many acceptances land at once,
/// and one offer takes one answer.
extension DealRaceTests {
    /// The seller accepts Ben's and Cal's offers from two devices at once: one buyer gets the item reserved, the other
    /// is told it is reserved, and that offer stays open in case the deal falls through.
    @Test(arguments: TestEngine.enabled)
    func twoOffersAcceptedAtOnceReserveTheListingForOne(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            var offers: [UUID] = []
            for n in 0..<Self.tries / 3 {
                let listing = try await Self.listing(client, market, n)
                let ben = try await DealTests.offer(client, market.ben, listing, 100)
                let cal = try await DealTests.offer(client, market.cal, listing, 120)
                offers += [ben.id, cal.id]
                async let first = DealTests.act(client, market.ana, "offers/\(ben.id)/accept")
                async let second = DealTests.act(client, market.ana, "offers/\(cal.id)/accept")
                let answers = try await [first, second]
                #expect(answers.filter { $0.status == .ok }.count == 1, "\(answers.map(\.text))")
                let loser = try #require(answers.first { $0.status != .ok })
                #expect(loser.status == .conflict && loser.problem?.code == .stateConflict)
                let states = try await [ben.id, cal.id].asyncMap {
                    try #require(try await DealStore().offer($0, on: services.database.sql)).state
                }
                #expect(
                    states.sorted { $0.rawValue < $1.rawValue } == [.accepted, .pending],
                    "the other offer stays open"
                )
                #expect(try await DealTests.listingState(client, market.ana, listing) == .reserved)
            }
            try await Self.settled(services, offers)
        }
    }

    /// One offer accepted on one device and declined on another at once: one answer counts, the other is told.
    @Test(arguments: TestEngine.enabled)
    func acceptingRacingDecliningGivesTheOfferOneAnswer(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            var offers: [UUID] = []
            for n in 0..<Self.tries / 3 {
                let listing = try await Self.listing(client, market, n)
                let offer = try await DealTests.offer(client, market.ben, listing, 100)
                offers.append(offer.id)
                async let accept = DealTests.act(client, market.ana, "offers/\(offer.id)/accept")
                async let decline = DealTests.act(client, market.ana, "offers/\(offer.id)/decline")
                let answers = try await [accept, decline]
                #expect(answers.filter { $0.status == .ok }.count == 1, "\(answers.map(\.text))")
                let state = try #require(try await DealStore().offer(offer.id, on: services.database.sql)).state
                #expect(state == (answers[0].status == .ok ? .accepted : .declined))
                #expect(
                    try await DealTests.listingState(client, market.ana, listing)
                        == (state == .accepted ? .reserved : .active)
                )
            }
            try await Self.settled(services, offers)
        }
    }
}

extension DealRaceTests {
    /// The seller takes a listing down while a buyer's cancel holds its offer (on PostgreSQL the removal locked the
    /// listing, then waited for the offer, while the cancel, holding the offer, waited for the listing: PostgreSQL broke
    /// the circle by failing one of them). Every deal transaction takes the offer first: the removal waits, then both end.
    @Test(arguments: TestEngine.enabled)
    func removingAListingWhileACancelHoldsItsOfferWaitsForIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            let offer = try await Self.accepted(client, market, listing: market.listing.id)
            let locked = AsyncStream<Void>.makeStream()
            // The cancel's transaction: the offer first; the listing only once the removal has begun.
            let cancel = Task {
                try await services.database.transaction { db in
                    _ = try await DealStore().move(offer.id, from: [.accepted], to: .cancelled, now: Date(), on: db)
                    locked.continuation.yield()
                    try await Task.sleep(for: .milliseconds(500))
                    return try await ListingStore().move(
                        market.listing.id,
                        from: [.reserved],
                        to: .active,
                        now: Date(),
                        on: db
                    )
                }
            }
            for await _ in locked.stream { break }
            let removal = try await client.send(.delete, "/v1/market/listings/\(market.listing.id)", token: market.ana)
            #expect(try await cancel.value, "the cancel put the listing back on sale")
            #expect(removal.status == .noContent, "\(removal.status) \(removal.text)")
            #expect(try await DealTests.listingState(client, market.ana, market.listing.id) == .removed)
        }
    }
}

extension Array {
    /// `transform` applied to each element in turn.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
