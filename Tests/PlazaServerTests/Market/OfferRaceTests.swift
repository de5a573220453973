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
                let states = try await [ben.id, cal.id].asyncMap { try #require(try await DealStore().offer($0, on: services.database.sql)).state }
                #expect(states.sorted { $0.rawValue < $1.rawValue } == [.accepted, .pending], "the other offer stays open")
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
                #expect(try await DealTests.listingState(client, market.ana, listing) == (state == .accepted ? .reserved : .active))
            }
            try await Self.settled(services, offers)
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
