import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Bidding: proxy bids, the reserve, the soft close, exactly-once bids, one order under concurrency, one winner.
@Suite struct BiddingTests {
    static func biddable(
        _ client: any TestClientProtocol,
        _ token: String,
        start: Int64,
        reserve: Int64?,
        endsAt: Date
    ) async throws -> Listing {
        let request = ListingRequest(
            title: "Signed poster",
            description: "From the 2019 concert.",
            price: Money(amount: start, currency: "USD"),
            category: "other",
            condition: .good,
            photoIds: [try await ListingTests.photo(client, token)],
            biddable: BiddingTerms(reservePrice: reserve, endsAt: endsAt)
        )
        return try await ListingTests.post(client, token, request)
    }

    static func bid(
        _ client: any TestClientProtocol,
        _ token: String,
        _ listing: UUID,
        _ max: Int64,
        key: String? = UUID().uuidString
    )
        async throws -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/market/listings/\(listing)/bids",
            json: BidRequest(maxAmount: max),
            token: token,
            headers: WalletDriver.keyed(key)
        )
    }

    @Test(arguments: TestEngine.enabled)
    func proxyBidsTheReserveAndTheSoftCloseMakeOneWinner(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            try await FollowTests.mailed(client, market.ben)
            try await FollowTests.mailed(client, market.cal)
            let ends = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 90).rounded())
            let tooSoon = ListingRequest(
                title: "Poster",
                description: "x",
                price: Money(amount: 2_000, currency: "USD"),
                category: "other",
                condition: .good,
                photoIds: [try await ListingTests.photo(client, market.ana)],
                biddable: BiddingTerms(endsAt: Date().addingTimeInterval(10))
            )
            #expect(
                try await client.send(.post, "/v1/market/listings", json: tooSoon, token: market.ana).problem?.errors?
                    .map(\.field) == [
                        "biddable.endsAt"
                    ]
            )
            let poster = try await Self.biddable(client, market.ana, start: 2_000, reserve: 5_500, endsAt: ends)
            #expect(
                poster.bidding?.currentPrice == 2_000 && poster.bidding?.bidCount == 0
                    && poster.bidding?.reserveMet == false
            )
            let id = poster.id

            // Ben's maximum is $50: the price stays at the start. A bid in the last two minutes moves the end on.
            #expect(
                try await Self.bid(client, market.ben, id, 5_000, key: nil).problem?.code == .idempotencyKeyRequired
            )
            let key = UUID().uuidString
            let first = try await Self.bid(client, market.ben, id, 5_000, key: key)
            #expect(first.status == .created, "\(first.text)")
            #expect(
                try first.decode(PlacedBid.self).leading && (try first.decode(PlacedBid.self)).currentPrice == 2_000
            )
            #expect(
                try await Self.bid(client, market.ben, id, 5_000, key: key).headers[.init("Idempotent-Replayed")!]
                    == "true"
            )
            var listing = try await client.send(.get, "/v1/market/listings/\(id)", token: market.ben).decode(
                Listing.self
            )
            #expect(listing.bidding?.bidCount == 1 && listing.bidding?.leading == true)
            #expect(listing.bidding?.endsAt == ends.addingTimeInterval(BiddingRules.softClose), "soft close")

            // Cal bids $30: Ben's proxy answers at $31. $31 again is too low.
            let cal = try await Self.bid(client, market.cal, id, 3_000)
            #expect(
                try cal.decode(PlacedBid.self).leading == false
                    && (try cal.decode(PlacedBid.self)).currentPrice == 3_100
            )
            let low = try await Self.bid(client, market.cal, id, 3_100)
            #expect(
                low.status == .unprocessableContent && low.problem?.code == .bidTooLow
                    && low.problem?.errors?.map(\.field) == ["maxAmount"]
            )
            #expect(
                try await Self.bid(client, market.ana, id, 9_000).problem?.errors?.map(\.field) == ["maxAmount"],
                "not on her own"
            )

            // Cal's $60 beats Ben's $50, and meets the $55 reserve: the price goes to the reserve. Ben reads German: he
            // hears of it in German (issue 41).
            let german = try await client.send(.patch, "/v1/me", json: ProfileUpdate(language: "de"), token: market.ben)
            #expect(german.status == .ok)
            let beat = try await Self.bid(client, market.cal, id, 6_000).decode(PlacedBid.self)
            #expect(beat.leading && beat.currentPrice == 5_500)
            #expect(try await FollowTests.alerts(services, "ben").contains("Du wurdest bei Signed poster überboten"))
            // The leader may raise their maximum: the price stays, and Ben's next bid must beat the new maximum.
            let raised = try await Self.bid(client, market.cal, id, 8_000).decode(PlacedBid.self)
            #expect(raised.leading && raised.currentPrice == 5_500 && raised.maxAmount == 8_000)
            #expect(
                try await Self.bid(client, market.cal, id, 7_000).problem?.code == .bidTooLow,
                "a leader cannot lower it"
            )
            listing = try await client.send(.get, "/v1/market/listings/\(id)", token: market.ben).decode(Listing.self)
            #expect(
                listing.bidding?.reserveMet == true && listing.bidding?.leading == false
                    && listing.bidding?.minimumBid == 5_750
            )
            let steps = try await client.send(.get, "/v1/market/listings/\(id)/bids", token: market.ben).decode(
                Page<BidStep>.self
            ).items
            #expect(
                steps.map(\.amount) == [5_500, 5_250, 5_000, 3_100, 3_000, 2_000]
                    && steps.map(\.proxy) == [true, false, true, true, false, false],
                "raising a maximum makes no step"
            )
            #expect(
                try await client.send(
                    .post,
                    "/v1/market/listings/\(id)/offers",
                    json: PriceOfferRequest(amount: 7_000),
                    token: market.ben
                ).status
                    == .conflict
            )

            // The end passes: Cal wins at $55 with an accepted offer; bids are refused from then on.
            let end = try #require(listing.bidding?.endsAt)
            #expect(try await services.market.closeAuctions(now: end.addingTimeInterval(-1)) == 0)
            #expect(try await services.market.closeAuctions(now: end.addingTimeInterval(1)) == 1)
            #expect(try await services.market.closeAuctions(now: end.addingTimeInterval(2)) == 0, "once")
            let offers = try await client.send(.get, "/v1/market/listings/\(id)/offers", token: market.cal).decode(
                Page<PriceOffer>.self
            ).items
            #expect(offers.map(\.state) == [.accepted] && offers.first?.amount == 5_500)
            #expect(try await FollowTests.alerts(services, "cal").contains("You won Signed poster for $55.00"))
            #expect(try await DealTests.listingState(client, market.ana, id) == .reserved)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func concurrentBidsTakeOneOrderAndTheHighestMaximumLeads(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let admin = try await AdminTests.admin(client, services)
            _ = try await CampusTests.campus(client, admin: admin)
            let seller = try await CampusTests.student(client, "sel", email: "sel@isar-uni.edu")
            var bidders: [String] = []
            for index in 0..<12 {
                bidders.append(try await CampusTests.student(client, "bid\(index)", email: "bid\(index)@isar-uni.edu"))
            }
            let poster = try await Self.biddable(
                client,
                seller,
                start: 2_000,
                reserve: nil,
                endsAt: Date().addingTimeInterval(3_600)
            )
            // Maxima $30, $40, ... $140, all at once.
            let placed = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (index, token) in bidders.enumerated() {
                    group.addTask { try await Self.bid(client, token, poster.id, Int64(3_000 + index * 1_000)).status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(placed.allSatisfy { $0 == .created || $0 == .unprocessableContent })
            let listing = try await client.send(.get, "/v1/market/listings/\(poster.id)", token: bidders[11]).decode(
                Listing.self
            )
            #expect(listing.bidding?.leading == true, "the highest maximum leads")
            #expect(listing.bidding?.currentPrice == 13_250, "one step above the second highest maximum")
            #expect(listing.bidding?.bidCount == placed.filter { $0 == .created }.count)
            let steps = try await client.send(.get, "/v1/market/listings/\(poster.id)/bids", token: seller).decode(
                Page<BidStep>.self
            ).items
            #expect(
                steps.first?.amount == 13_250 && steps.map(\.amount) == steps.map(\.amount).sorted(by: >),
                "prices only rise"
            )
        }
    }

    /// A bid landing between the sweep's read of an auction and its close (issue 36: the close decided its winner from
    /// that read): the close waits for the next sweep, which makes the bid's maker the winner at the final price; and
    /// bids racing the sweep for real always end in a deal at the final price, to the final leader.
    @Test(arguments: TestEngine.enabled)
    func aBidRacingTheCloseIsRefusedOrWinsNeverLost(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let store = ListingStore()
            for attempt in 0..<10 {
                let ends = Date().addingTimeInterval(3_600)
                let poster = try await Self.biddable(client, market.ana, start: 2_000, reserve: nil, endsAt: ends)
                #expect(try await Self.bid(client, market.ben, poster.id, 3_000).status == .created)
                if attempt == 0 {
                    // The sweep read the auction with Ben leading; Cal's bid lands before its close.
                    let read = try #require(try await store.listing(poster.id, on: services.database.sql))
                    #expect(try await Self.bid(client, market.cal, poster.id, 5_000).status == .created)
                    #expect(
                        try await services.market.closeAuction(read, now: ends.addingTimeInterval(1)) == false,
                        "not as read"
                    )
                } else {
                    // Cal outbids while the sweep closes it (its clock past the end; Cal's still before it).
                    async let outbid = Self.bid(client, market.cal, poster.id, 5_000)
                    async let closing = services.market.closeAuctions(now: ends.addingTimeInterval(1))
                    let (bid, _) = try await (outbid, closing)
                    #expect([HTTPResponse.Status.created, .conflict].contains(bid.status), "\(bid.text)")
                }
                while try await services.market.closeAuctions(now: ends.addingTimeInterval(1)) > 0 {}
                let record = try #require(try await store.listing(poster.id, on: services.database.sql))
                #expect(record.auctionClosed, "closed in the end")
                let deal = try await DealStore().offers(listing: poster.id, on: services.database.sql)
                #expect(deal.count == 1 && deal.first?.state == .accepted)
                #expect(deal.first?.buyerId == record.auction?.leader, "the final leader wins")
                #expect(deal.first?.amount == record.auction?.currentPrice, "at the final price")
                if attempt == 0 { #expect(record.auction?.currentPrice == 3_100 && deal.first?.buyerName == "Cal") }
            }
            #expect(try await services.verify().findings == [])
        }
    }
}
