import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// A meetup's handshake by scanned token or typed code (five wrong ones void it), and sharing where a side is.
extension DealTests {
    @Test(arguments: TestEngine.enabled)
    func aScannedTokenConfirmsAForgedOneDoesNotAndFiveWrongCodesVoidIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let offer = try await Self.acceptedDeal(client, market, paid: false)
            let point = MeetupRequest(latitude: 48.1510, longitude: 11.5790, at: Date().addingTimeInterval(300))
            let meetup = try await Self.meetup(client, market.ben, offer.conversationId, point)
            #expect(try await Self.act(client, market.ana, "meetups/\(meetup.id)/accept").status == .ok)
            let confirm = "meetups/\(meetup.id)/handshake/confirm"

            // Before the seller shows it there is nothing to confirm.
            #expect(
                try await Self.act(client, market.ben, confirm, json: HandshakeConfirmation(code: "123456")).status
                    == .conflict
            )
            var handshake = try await Self.act(client, market.ana, "meetups/\(meetup.id)/handshake").decode(
                Handshake.self
            )
            for _ in 0..<DealRules.handshakeAttempts {
                let wrong = handshake.code == "999999" ? "888888" : "999999"
                #expect(
                    try await Self.act(client, market.ben, confirm, json: HandshakeConfirmation(code: wrong)).status
                        == .unprocessableContent
                )
            }
            let void = try await Self.act(
                client,
                market.ben,
                confirm,
                json: HandshakeConfirmation(code: handshake.code)
            )
            #expect(void.status == .conflict, "five wrong codes void the handshake: \(void.text)")

            // A new handshake; a token whose signature was changed is refused, the real one confirms.
            handshake = try await Self.act(client, market.ana, "meetups/\(meetup.id)/handshake").decode(Handshake.self)
            let forged = String(handshake.token.dropLast()) + (handshake.token.hasSuffix("0") ? "1" : "0")
            let refused = try await Self.act(client, market.ben, confirm, json: HandshakeConfirmation(token: forged))
            #expect(refused.problem?.code == .invalidCode && refused.problem?.errors?.map(\.field) == ["token"])
            let done = try await Self.act(
                client,
                market.ben,
                confirm,
                json: HandshakeConfirmation(token: handshake.token)
            )
            #expect(done.status == .ok, "\(done.text)")
            #expect(try done.decode(HandshakeResult.self).payment == nil, "nothing was paid through Plaza")
            #expect(try await Self.listingState(client, market.ana, market.listing.id) == .sold)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aSideSharesWhereTheyAreOnlyWithTheOtherAndOnlyInTheWindow(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let offer = try await Self.acceptedDeal(client, market, paid: false)
            let spot = Coordinate(latitude: 48.1510, longitude: 11.5790)
            let meetup = try await Self.meetup(
                client,
                market.ben,
                offer.conversationId,
                MeetupRequest(latitude: spot.latitude, longitude: spot.longitude, at: Date().addingTimeInterval(600))
            )
            let share = { (token: String, on: Bool) in
                try await client.send(
                    .put,
                    "/v1/market/meetups/\(meetup.id)/location-share",
                    json: LocationShareRequest(on: on),
                    token: token
                )
            }
            #expect(try await share(market.ana, true).problem?.code == .stateConflict, "once agreed")
            #expect(try await Self.act(client, market.ana, "meetups/\(meetup.id)/accept").status == .ok)

            // Ana shares and moves (her phone shares its location with Plaza); Ben sees her newest position, Cal nothing.
            let places = PlacesDriver(client)
            try await places.share(.merchants, token: market.ana)
            #expect(try await places.move(to: spot.offset(north: 80), token: market.ana).status == .ok)
            #expect(try await share(market.ana, true).decode(MeetupLocation.self).sharing)
            var seen = try await client.send(.get, "/v1/market/meetups/\(meetup.id)/location", token: market.ben)
                .decode(MeetupLocation.self)
            #expect(seen.otherSharing && !seen.sharing)
            #expect(abs((seen.other?.latitude ?? 0) - spot.offset(north: 80).latitude) < 0.00001)
            // Ben's deal card draws the meeting point and Ana's dot on its map.
            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "ben", "password": AccountsDriver.password])
            let card = try await page.get("/market/conversations/\(offer.conversationId.uuidString.lowercased())/deal")
                .text
            #expect(
                card.contains("data-meetup-map") && card.contains("data-person=\"\(seen.other?.latitude ?? 0),"),
                "\(card)"
            )
            #expect(card.contains("Ana is 80 m from the meeting point"))
            #expect(
                try await client.send(.get, "/v1/market/meetups/\(meetup.id)/location", token: market.cal).status
                    == .notFound
            )
            // Ben does not share: Ana sees nothing of him.
            #expect(
                try await client.send(.get, "/v1/market/meetups/\(meetup.id)/location", token: market.ana).decode(
                    MeetupLocation.self
                ).other == nil
            )
            // She stops: gone at once.
            _ = try await share(market.ana, false)
            seen = try await client.send(.get, "/v1/market/meetups/\(meetup.id)/location", token: market.ben).decode(
                MeetupLocation.self
            )
            #expect(!seen.otherSharing && seen.other == nil)
            // Outside the window (the service's clock an hour earlier) nothing shows either.
            _ = try await share(market.ana, true)
            let ben = try #require(try await AccountStore().user(login: "ben", on: services.database.sql))
            let early = try await services.market.meetupLocation(
                Identity(user: ben, sessionID: UUID()),
                meetup: meetup.id,
                now: Date().addingTimeInterval(-3_600)
            )
            #expect(early.otherSharing && early.other == nil)
        }
    }
}
