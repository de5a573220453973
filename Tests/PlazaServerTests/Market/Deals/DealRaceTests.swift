import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Escrow under races (issue 36): whatever order a payment, a cancel and a handshake land in, every deal ends with its
/// money where its state says: held only on an open accepted offer, refunded on a called-off one, released on a sale.
@Suite struct DealRaceTests {
    static let tries = 30

    /// Every offer's money agrees with its state, the hold account equals the held deals, the ledger verifies.
    static func settled(_ services: PlazaServices, _ offers: [UUID]) async throws {
        for id in offers {
            let offer = try #require(try await DealStore().offer(id, on: services.database.sql))
            switch offer.state {
            case .cancelled, .declined:
                #expect(
                    offer.paymentState != .held && offer.paymentState != .released,
                    "\(offer.state) offer \(id): \(String(describing: offer.paymentState))"
                )
            case .completed:
                #expect(
                    offer.paymentState != .held && offer.paymentState != .refunded,
                    "completed offer \(id): \(String(describing: offer.paymentState))"
                )
            case .pending, .countered, .accepted:
                #expect(offer.paymentState != .released && offer.paymentState != .refunded)
            }
        }
        try await DealTests.conserved(services)
        #expect(try await services.verify().findings == [])
    }

    /// Ana's listing for one race, a fresh one each time: it may end sold.
    static func listing(_ client: any TestClientProtocol, _ market: ChatTests.Market, _ n: Int) async throws -> UUID {
        let request = ListingRequest(
            title: "Desk lamp \(n)",
            description: "Warm light.",
            price: Money(amount: 900, currency: "USD"),
            category: "other",
            condition: .good,
            photoIds: [try await ListingTests.photo(client, market.ana)]
        )
        return try await ListingTests.post(client, market.ana, request).id
    }

    /// Ben's offer of 100 on `listing`, accepted by Ana.
    static func accepted(
        _ client: any TestClientProtocol,
        _ market: ChatTests.Market,
        listing: UUID
    ) async throws -> PriceOffer {
        let offer = try await DealTests.offer(client, market.ben, listing, 100)
        #expect(try await DealTests.act(client, market.ana, "offers/\(offer.id)/accept").status == .ok)
        return offer
    }

    @Test(arguments: TestEngine.enabled)
    func aPaymentLandingAfterTheCancelReadTheOfferIsRefunded(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            _ = try await WalletDriver(client).fund(1_000, token: market.ben)
            let offer = try await Self.accepted(client, market, listing: market.listing.id)
            // The cancel read the offer before Ben's payment committed; its transaction runs after it.
            let stale = try #require(try await DealStore().offer(offer.id, on: services.database.sql))
            #expect(try await DealTests.pay(client, market.ben, offer.id).status == .created)
            let market_ = services.market
            let refunded = try await services.events.transaction(publishing: { db in
                (
                    try await market_.cancel(
                        stale,
                        money: try await market_.dealMoney(stale, on: db),
                        now: Date(),
                        on: db
                    ), []
                )
            })
            #expect(refunded == 100)
            #expect(try await WalletDriver(client).balance(token: market.ben) == 1_000)
            #expect(try await DealTests.listingState(client, market.ana, market.listing.id) == .active)
            try await Self.settled(services, [offer.id])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func payingRacingACancelNeverStrandsTheMoney(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            let wallet = WalletDriver(client)
            _ = try await wallet.fund(100 * Int64(Self.tries), token: market.ben)
            var offers: [UUID] = []
            for n in 0..<Self.tries {
                let offer = try await Self.accepted(client, market, listing: market.listing.id)
                offers.append(offer.id)
                // The seller or the buyer calls it off while the buyer pays.
                let canceller = n.isMultiple(of: 2) ? market.ana : market.ben
                async let paid = DealTests.pay(client, market.ben, offer.id)
                async let cancelled = DealTests.act(client, canceller, "offers/\(offer.id)/cancel")
                let (pay, cancel) = try await (paid, cancelled)
                #expect([HTTPResponse.Status.created, .conflict].contains(pay.status), "\(pay.text)")
                #expect(cancel.status == .ok, "\(cancel.text)")
            }
            // Every cancelled deal gave its money back: Ben has all of it.
            #expect(try await wallet.balance(token: market.ben) == 100 * Int64(Self.tries))
            try await Self.settled(services, offers)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func payingOrCancellingRacingTheHandshakeEndsWithTheMoneyWhereTheDealIs(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            let wallet = WalletDriver(client)
            _ = try await wallet.fund(100 * Int64(Self.tries), token: market.ben)
            var offers: [UUID] = []
            for n in 0..<Self.tries {
                let listing = try await Self.listing(client, market, n)
                let offer = try await Self.accepted(client, market, listing: listing)
                offers.append(offer.id)
                let place = MeetupRequest(latitude: 48.1510, longitude: 11.5790, at: Date().addingTimeInterval(300))
                let meetup = try await DealTests.meetup(client, market.ben, offer.conversationId, place)
                #expect(try await DealTests.act(client, market.ana, "meetups/\(meetup.id)/accept").status == .ok)
                let handshake = try await DealTests.act(client, market.ana, "meetups/\(meetup.id)/handshake").decode(
                    Handshake.self
                )
                let confirm = HandshakeConfirmation(code: handshake.code)
                // Even tries: Ben pays while he confirms. Odd tries: he paid; Ana calls it off while he confirms.
                if !n.isMultiple(of: 2) {
                    #expect(try await DealTests.pay(client, market.ben, offer.id).status == .created)
                }
                async let racing =
                    n.isMultiple(of: 2)
                    ? DealTests.pay(client, market.ben, offer.id)
                    : DealTests.act(client, market.ana, "offers/\(offer.id)/cancel")
                async let confirmed = DealTests.act(
                    client,
                    market.ben,
                    "meetups/\(meetup.id)/handshake/confirm",
                    json: confirm
                )
                let (other, done) = try await (racing, confirmed)
                #expect([HTTPResponse.Status.ok, .created, .conflict].contains(other.status), "\(other.text)")
                #expect([HTTPResponse.Status.ok, .conflict].contains(done.status), "\(done.text)")
                let state = try await DealTests.listingState(client, market.ana, listing)
                let after = try #require(try await DealStore().offer(offer.id, on: services.database.sql))
                // Sold means the deal completed (with its money released if paid); otherwise the listing is not sold.
                #expect(
                    (state == .sold) == (after.state == .completed),
                    "try \(n): listing \(state), offer \(after.state) \(String(describing: after.paymentState)), racing \(other.status) \(done.status) \(done.text)"
                )
            }
            try await Self.settled(services, offers)
            // What Ben paid and was not refunded went to Ana, to the cent.
            let (ana, ben) = (try await wallet.balance(token: market.ana), try await wallet.balance(token: market.ben))
            #expect(ana + ben == 100 * Int64(Self.tries))
        }
    }

    /// The seller edits the listing while accepting an offer (issue 36: the edit wrote back the state it had read, so a
    /// reserved listing went back on sale): whatever lands first, an accepted offer's listing stays reserved.
    @Test(arguments: TestEngine.enabled)
    func editingAListingRacingAnAcceptKeepsItReserved(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let bike = market.listing.id
            for n in 0..<Self.tries {
                let offer = try await DealTests.offer(client, market.ben, bike, 100)
                async let accepted = DealTests.act(client, market.ana, "offers/\(offer.id)/accept")
                async let edited = client.send(
                    .patch,
                    "/v1/market/listings/\(bike)",
                    json: ListingChange(title: "City bike, try \(n)"),
                    token: market.ana
                )
                let (accept, edit) = try await (accepted, edited)
                #expect(accept.status == .ok && edit.status == .ok, "\(accept.text) \(edit.text)")
                #expect(try await DealTests.listingState(client, market.ana, bike) == .reserved, "try \(n)")
                #expect(try await DealTests.act(client, market.ana, "offers/\(offer.id)/cancel").status == .ok)
            }
        }
    }
}
