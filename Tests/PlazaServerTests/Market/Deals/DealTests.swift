import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// A sale between two students: an offer and its answers reserve the listing, the buyer's money is held by Plaza,
/// a meetup is agreed, and the seller's single-use handshake marks it sold and releases the money; a deal called off,
/// or a meetup passed without a handshake, gives the money back. Money is conserved and the ledger verifies.
@Suite struct DealTests {
    static func offer(
        _ client: any TestClientProtocol,
        _ token: String,
        _ listing: UUID,
        _ amount: Int64
    ) async throws -> PriceOffer {
        let response = try await client.send(
            .post,
            "/v1/market/listings/\(listing)/offers",
            json: PriceOfferRequest(amount: amount),
            token: token
        )
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(PriceOffer.self)
    }

    static func act(
        _ client: any TestClientProtocol,
        _ token: String,
        _ path: String,
        json: (some Encodable)? = nil as PriceOfferRequest?
    )
        async throws -> TestResponse
    {
        if let json { return try await client.send(.post, "/v1/market/\(path)", json: json, token: token) }
        return try await client.send(.post, "/v1/market/\(path)", token: token)
    }

    static func pay(
        _ client: any TestClientProtocol,
        _ token: String,
        _ offer: UUID,
        key: String? = UUID().uuidString
    ) async throws -> TestResponse {
        try await client.send(.post, "/v1/market/offers/\(offer)/pay", token: token, headers: WalletDriver.keyed(key))
    }

    static func meetup(
        _ client: any TestClientProtocol,
        _ token: String,
        _ conversation: UUID,
        _ request: MeetupRequest
    ) async throws -> Meetup {
        let response = try await client.send(
            .post,
            "/v1/market/conversations/\(conversation)/meetups",
            json: request,
            token: token
        )
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(Meetup.self)
    }

    /// Ana sells the bike; Ben has an accepted offer of `amount`, paid into the hold when `paid`.
    static func acceptedDeal(
        _ client: any TestClientProtocol,
        _ market: ChatTests.Market,
        amount: Int64 = 8_000,
        paid: Bool
    ) async throws -> PriceOffer {
        let offer = try await offer(client, market.ben, market.listing.id, amount)
        #expect(try await act(client, market.ana, "offers/\(offer.id)/accept").status == .ok)
        if paid {
            let wallet = WalletDriver(client)
            if try await wallet.balance(token: market.ben) < amount {
                _ = try await wallet.fund(10_000, token: market.ben)
            }
            #expect(try await pay(client, market.ben, offer.id).status == .created)
        }
        return offer
    }

    static func listingState(_ client: any TestClientProtocol, _ token: String, _ id: UUID) async throws -> ListingState
    {
        try await client.send(.get, "/v1/market/listings/\(id)", token: token).decode(Listing.self).state
    }

    /// Plaza's holding account holds exactly the held deals, and every balance matches the journal.
    static func conserved(_ services: PlazaServices) async throws {
        let db = services.database.sql
        #expect(
            try await WalletMarketPayments(wallet: services.wallet).held(currency: "USD", on: db)
                == (try await DealStore().heldTotal(currency: "USD", on: db))
        )
        #expect(try await services.verifyLedger().problems == [])
    }

    @Test(arguments: TestEngine.enabled)
    func anOfferIsCounteredAcceptedPaidAndReleasedAtTheHandshake(_ engine: TestEngine) async throws {
        // Live: the card processor's stand-in settles the buyer's top-up by webhook.
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            let wallet = WalletDriver(client)
            let bike = market.listing.id

            // Ben offers $70; Ana counters $80; Cal, a third student, sees none of it and cannot answer it.
            let offer = try await Self.offer(client, market.ben, bike, 7_000)
            #expect(
                offer.state == .pending && offer.amount == 7_000 && offer.currency == "USD" && offer.proposedBy == "ben"
            )
            #expect(try await Self.act(client, market.cal, "offers/\(offer.id)/accept").status == .notFound)
            #expect(
                try await Self.act(client, market.ben, "offers/\(offer.id)/accept").problem?.code == .stateConflict,
                "Ben waits for Ana"
            )
            let countered = try await Self.act(
                client,
                market.ana,
                "offers/\(offer.id)/counter",
                json: PriceOfferRequest(amount: 8_000)
            )
            #expect(try countered.decode(PriceOffer.self).state == .countered)
            #expect(
                try await client.send(.get, "/v1/market/listings/\(bike)/offers", token: market.cal).decode(
                    Page<PriceOffer>.self
                ).items == []
            )
            let cal = try await Self.offer(client, market.cal, bike, 7_500)

            // Ben accepts the counter: the bike is reserved for him, so Ana cannot accept Cal's offer too.
            let accepted = try await Self.act(client, market.ben, "offers/\(offer.id)/accept").decode(PriceOffer.self)
            #expect(accepted.state == .accepted && accepted.amount == 8_000)
            #expect(try await Self.listingState(client, market.ana, bike) == .reserved)
            #expect(try await Self.act(client, market.ana, "offers/\(cal.id)/accept").problem?.code == .stateConflict)

            // Paying needs a key; with one, Ben's $80 leaves his balance and waits in Plaza's hold (a retry pays once).
            _ = try await wallet.fund(10_000, token: market.ben)
            #expect(try await Self.pay(client, market.ben, offer.id, key: nil).problem?.code == .idempotencyKeyRequired)
            let key = UUID().uuidString
            let paid = try await Self.pay(client, market.ben, offer.id, key: key)
            #expect(paid.status == .created, "\(paid.text)")
            #expect(try paid.decode(DealPayment.self).state == .held)
            #expect(
                try await Self.pay(client, market.ben, offer.id, key: key).headers[.init("Idempotent-Replayed")!]
                    == "true"
            )
            #expect(try await Self.pay(client, market.ben, offer.id).problem?.code == .stateConflict, "paid once")
            #expect(try await wallet.balance(token: market.ben) == 2_000)
            #expect(try await wallet.balance(token: market.ana) == 0)
            try await Self.conserved(services)

            // They agree on the library lobby in ten minutes: its window is open.
            let admin = try await AdminTests.admin(client, services)
            let campus = try await client.send(.get, "/v1/admin/campuses", token: admin).decode(Page<Campus>.self)
                .items[0]
            let spotRequest = SafeSpotRequest(
                name: "Library lobby",
                latitude: 48.1502,
                longitude: 11.5801,
                description: "Staffed",
                hours: "8–22"
            )
            let spot = try await client.send(
                .post,
                "/v1/admin/campuses/\(campus.id)/safe-spots",
                json: spotRequest,
                token: admin
            )
            .decode(SafeSpot.self)
            let far = MeetupRequest(latitude: 52.52, longitude: 13.40, at: Date().addingTimeInterval(600))
            let farAway = try await client.send(
                .post,
                "/v1/market/conversations/\(offer.conversationId)/meetups",
                json: far,
                token: market.ben
            )
            #expect(farAway.problem?.errors?.map(\.field) == ["latitude"], "a point must be near campus")
            let meetup = try await Self.meetup(
                client,
                market.ben,
                offer.conversationId,
                MeetupRequest(spotId: spot.id, at: Date().addingTimeInterval(600))
            )
            #expect(meetup.state == .proposed && meetup.place.name == "Library lobby")
            #expect(
                try await Self.act(client, market.ben, "meetups/\(meetup.id)/accept").problem?.code == .stateConflict,
                "Ana answers"
            )
            #expect(try await Self.act(client, market.cal, "meetups/\(meetup.id)/accept").status == .notFound)
            #expect(
                try await Self.act(client, market.ana, "meetups/\(meetup.id)/accept").decode(Meetup.self).state
                    == .accepted
            )

            // Only the seller shows the handshake; only the buyer confirms it; a wrong code is refused.
            #expect(try await Self.act(client, market.ben, "meetups/\(meetup.id)/handshake").status == .notFound)
            let shown = try await Self.act(client, market.ana, "meetups/\(meetup.id)/handshake")
            #expect(shown.status == .created, "\(shown.text)")
            let handshake = try shown.decode(Handshake.self)
            #expect(handshake.code.count == 6 && handshake.token.hasPrefix("plaza:handshake:"))
            let confirm = "meetups/\(meetup.id)/handshake/confirm"
            #expect(
                try await Self.act(client, market.cal, confirm, json: HandshakeConfirmation(code: handshake.code))
                    .status == .notFound
            )
            #expect(
                try await Self.act(client, market.ana, confirm, json: HandshakeConfirmation(code: handshake.code))
                    .status == .notFound
            )
            let wrong = handshake.code == "000000" ? "111111" : "000000"
            let refused = try await Self.act(client, market.ben, confirm, json: HandshakeConfirmation(code: wrong))
            #expect(
                refused.status == .unprocessableContent && refused.problem?.code == .invalidCode
                    && refused.problem?.errors?.map(\.field) == ["code"]
            )

            // The right code: sold to Ben, and Ana has the $80; the code works once.
            let done = try await Self.act(
                client,
                market.ben,
                confirm,
                json: HandshakeConfirmation(code: handshake.code)
            )
            #expect(done.status == .ok, "\(done.text)")
            let result = try done.decode(HandshakeResult.self)
            #expect(
                result.listing.state == .sold && result.listing.soldTo == "ben" && result.payment?.state == .released
            )
            #expect(try await wallet.balance(token: market.ana) == 8_000)
            #expect(try await wallet.balance(token: market.ben) == 2_000)
            let replayed = try await Self.act(
                client,
                market.ben,
                confirm,
                json: HandshakeConfirmation(code: handshake.code)
            )
            #expect(replayed.status == .conflict && replayed.problem?.code == .stateConflict)
            // Cal's offer ended with the sale; both histories say what happened.
            let offers = try await client.send(.get, "/v1/market/listings/\(bike)/offers", token: market.ana).decode(
                Page<PriceOffer>.self
            ).items
            #expect(Set(offers.map(\.state)) == [.completed, .cancelled])
            #expect(try await wallet.activity(token: market.ana).items.first?.kind == .marketSale)
            #expect(try await wallet.activity(token: market.ben).items.first?.kind == .marketHold)
            try await Self.conserved(services)
            // Each side's history says who, for how much, and that it went through Plaza.
            let sales = try await client.send(.get, "/v1/market/me/sales", token: market.ana).decode(
                Page<MarketSale>.self
            ).items
            #expect(
                sales.map(\.counterpart?.username) == ["ben"] && sales.first?.price?.amount == 8_000
                    && sales.first?.paidThroughPlaza == true
            )
            let purchases = try await client.send(.get, "/v1/market/me/purchases", token: market.ben).decode(
                Page<MarketSale>.self
            ).items
            #expect(purchases.map(\.counterpart?.username) == ["ana"] && purchases.first?.listing.title == "City bike")
            #expect(
                try await client.send(.get, "/v1/market/me/purchases", token: market.cal).decode(Page<MarketSale>.self)
                    .items.isEmpty
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aDealCalledOffOrAMeetupPassedGivesTheMoneyBack(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            let wallet = WalletDriver(client)
            let bike = market.listing.id

            // Ana calls the paid deal off: Ben has his $100 again and the bike is for sale again.
            let first = try await Self.acceptedDeal(client, market, paid: true)
            #expect(try await wallet.balance(token: market.ben) == 2_000)
            let cancelled = try await Self.act(client, market.ana, "offers/\(first.id)/cancel").decode(PriceOffer.self)
            #expect(cancelled.state == .cancelled && cancelled.payment?.state == .refunded)
            #expect(try await wallet.balance(token: market.ben) == 10_000)
            #expect(try await Self.listingState(client, market.ana, bike) == .active)
            #expect(try await wallet.activity(token: market.ben).items.first?.kind == .marketRefund)

            // Again, with a meetup tomorrow: its handshake is not open yet; when its window passes, the money goes back.
            let second = try await Self.acceptedDeal(client, market, paid: true)
            let point = MeetupRequest(latitude: 48.1510, longitude: 11.5790, at: Date().addingTimeInterval(86_400))
            let meetup = try await Self.meetup(client, market.ana, second.conversationId, point)
            #expect(meetup.place.spotId == nil && meetup.windowEnd == meetup.at.addingTimeInterval(7_200))
            #expect(try await Self.act(client, market.ben, "meetups/\(meetup.id)/accept").status == .ok)
            let early = try await Self.act(client, market.ana, "meetups/\(meetup.id)/handshake")
            #expect(early.status == .conflict && early.problem?.code == .stateConflict)
            #expect(try await services.market.expireMeetups(now: Date().addingTimeInterval(3_600)) == 0, "not due yet")
            #expect(try await services.market.expireMeetups(now: meetup.windowEnd.addingTimeInterval(1)) == 1)
            #expect(try await services.market.expireMeetups(now: meetup.windowEnd.addingTimeInterval(2)) == 0, "once")
            let deal = try await client.send(
                .get,
                "/v1/market/conversations/\(second.conversationId)/deal",
                token: market.ben
            )
            .decode(ConversationDeal.self)
            #expect(deal.meetups.first?.state == .expired && deal.offers.first?.payment?.state == .refunded)
            #expect(try await wallet.balance(token: market.ben) == 10_000)
            #expect(try await Self.listingState(client, market.ana, bike) == .active)
            try await Self.conserved(services)

            // A seller who sells elsewhere ends the open deals too: the held money goes back.
            let third = try await Self.acceptedDeal(client, market, paid: false)
            #expect(try await Self.pay(client, market.ben, third.id).status == .created)
            #expect(
                try await client.send(
                    .post,
                    "/v1/market/listings/\(bike)/sold",
                    json: ListingSale(buyer: nil),
                    token: market.ana
                ).status == .ok
            )
            #expect(try await wallet.balance(token: market.ben) == 10_000)
            try await Self.conserved(services)
        }
    }
}
