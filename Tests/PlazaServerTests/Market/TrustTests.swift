import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Ratings after a handshake (blind until both rated or a week passed), reports with the admin's decision, the
/// statement of reasons and one appeal.
@Suite struct TrustTests {
    /// Ana sells the bike to Ben through an accepted offer and a confirmed handshake.
    static func sold(_ client: any TestClientProtocol, _ market: ChatTests.Market) async throws {
        let offer = try await DealTests.acceptedDeal(client, market, paid: false)
        let point = MeetupRequest(latitude: 48.1510, longitude: 11.5790, at: Date().addingTimeInterval(300))
        let meetup = try await DealTests.meetup(client, market.ben, offer.conversationId, point)
        #expect(try await DealTests.act(client, market.ana, "meetups/\(meetup.id)/accept").status == .ok)
        let handshake = try await DealTests.act(client, market.ana, "meetups/\(meetup.id)/handshake").decode(Handshake.self)
        let done = try await DealTests.act(
            client, market.ben, "meetups/\(meetup.id)/handshake/confirm", json: HandshakeConfirmation(code: handshake.code))
        #expect(done.status == .ok, "\(done.text)")
    }

    static func rate(
        _ client: any TestClientProtocol, _ token: String, _ listing: UUID, _ stars: Int, _ comment: String? = nil
    ) async throws
        -> TestResponse
    {
        try await client.send(.post, "/v1/market/listings/\(listing)/rating", json: RatingRequest(stars: stars, comment: comment), token: token)
    }

    static func profile(_ client: any TestClientProtocol, _ token: String, _ username: String) async throws -> MarketProfile {
        try await client.send(.get, "/v1/market/users/\(username)", token: token).decode(MarketProfile.self)
    }

    @Test(arguments: TestEngine.enabled)
    func ratingsStayHiddenUntilBothSidesRatedOrAWeekPassed(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let bike = market.listing.id
            // No rating before a handshake.
            #expect(try await Self.rate(client, market.ana, bike, 5).problem?.code == .stateConflict)
            try await Self.sold(client, market)

            // Cal was not part of it; stars out of range are named.
            #expect(try await Self.rate(client, market.cal, bike, 5).status == .notFound)
            #expect(try await Self.rate(client, market.ben, bike, 6).problem?.errors?.map(\.field) == ["stars"])
            let given = try await Self.rate(client, market.ben, bike, 5, "Exactly as described.")
            #expect(given.status == .created, "\(given.text)")
            #expect(try given.decode(MarketRating.self).role == .buyer)
            #expect(try await Self.rate(client, market.ben, bike, 4).problem?.code == .stateConflict, "once")

            // Ana cannot read Ben's rating yet, and her profile does not count it.
            var ana = try await client.send(.get, "/v1/market/listings/\(bike)/rating", token: market.ana).decode(DealRatings.self)
            #expect(ana.canRate && ana.theirs == nil && ana.theirsWaiting)
            #expect(try await Self.profile(client, market.cal, "ana").rating == RatingSummary(average: nil, count: 0))
            // A week later it would show by itself.
            let weekLater = try await services.market.trust.summary(
                of: try #require(try await AccountStore().user(login: "ana", on: services.database.sql)).id,
                now: Date().addingTimeInterval(RatingRules.blindPeriod + 60), on: services.database.sql)
            #expect(weekLater == RatingSummary(average: 5, count: 1))

            // Ana rates too: both show at once, on both profiles.
            #expect(try await Self.rate(client, market.ana, bike, 4, "Quick to answer.").status == .created)
            ana = try await client.send(.get, "/v1/market/listings/\(bike)/rating", token: market.ana).decode(DealRatings.self)
            #expect(!ana.canRate && ana.theirs?.stars == 5 && ana.theirs?.comment == "Exactly as described." && ana.mine?.stars == 4)
            #expect(try await Self.profile(client, market.cal, "ana").rating == RatingSummary(average: 5, count: 1))
            #expect(try await Self.profile(client, market.cal, "ben").rating == RatingSummary(average: 4, count: 1))
            let list = try await client.send(.get, "/v1/market/users/ana/ratings", token: market.cal).decode(Page<MarketRating>.self)
            #expect(list.items.map(\.rater.username) == ["ben"] && list.items.first?.listingTitle == "City bike")
        }
    }
}
