import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Chat about a listing: a buyer's "I'm interested" opens one conversation with the seller; messages are encrypted at
/// rest, carry warnings for scams, count as unread until read, page back, and stay for one side when the other deletes.
@Suite struct ChatTests {
    struct Market {
        let ana: String
        let ben: String
        let cal: String
        let listing: Listing
    }

    /// Ana sells a bike on Isar University; Ben and Cal study there too.
    static func market(_ client: any TestClientProtocol, _ services: PlazaServices) async throws -> Market {
        let admin = try await AdminTests.admin(client, services)
        _ = try await CampusTests.campus(client, admin: admin)
        let ana = try await CampusTests.student(client, "ana", email: "ana@isar-uni.edu")
        let ben = try await CampusTests.student(client, "ben", email: "ben@isar-uni.edu")
        let cal = try await CampusTests.student(client, "cal", email: "cal@isar-uni.edu")
        let bike = ListingRequest(
            title: "City bike",
            description: "Three gears, new tyres.",
            price: Money(amount: 9_000, currency: "USD"),
            category: "other",
            condition: .good,
            photoIds: [try await ListingTests.photo(client, ana)]
        )
        return Market(ana: ana, ben: ben, cal: cal, listing: try await ListingTests.post(client, ana, bike))
    }

    static func messages(
        _ client: any TestClientProtocol,
        _ token: String,
        _ id: UUID,
        _ query: String = ""
    ) async throws -> Page<ChatMessage> {
        let response = try await client.send(.get, "/v1/market/conversations/\(id)/messages\(query)", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(Page<ChatMessage>.self)
    }

    static func say(
        _ client: any TestClientProtocol,
        _ token: String,
        _ id: UUID,
        _ text: String
    ) async throws -> ChatMessage {
        let response = try await client.send(
            .post,
            "/v1/market/conversations/\(id)/messages",
            json: MessageRequest(text: text),
            token: token
        )
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(ChatMessage.self)
    }

    @Test(arguments: TestEngine.enabled)
    func aBuyerAndASellerTalkPrivatelyWithWarningsBesideScams(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await Self.market(client, services)
            let start = ConversationStart(listingId: market.listing.id)
            let opened = try await client.send(.post, "/v1/market/conversations", json: start, token: market.ben)
            #expect(opened.status == .created)
            let id = try opened.decode(Conversation.self).id
            let again = try await client.send(.post, "/v1/market/conversations", json: start, token: market.ben)
            let againID = try again.decode(Conversation.self).id
            #expect(again.status == .ok && againID == id, "one conversation per listing and buyer")
            let own = try await client.send(.post, "/v1/market/conversations", json: start, token: market.ana)
            #expect(own.problem?.errors?.map(\.field) == ["listingId"])

            // A message asking to pay elsewhere carries a warning; its text is not stored in the clear.
            let first = try await Self.say(client, market.ben, id, "Still available? I can send it by Venmo tonight.")
            #expect(first.sender == "ben" && first.warnings.map(\.code) == [ChatRules.offPlatform])
            let stored = try await services.database.sql.select().column("body").from("market_messages").where(
                "id",
                .equal,
                first.id
            ).first()
            let body = try #require(try stored?.decode(column: "body", as: Data.self))
            #expect(!String(decoding: body, as: UTF8.self).contains("Venmo") && body.count > 28)

            // Ana sees it unread, reads it; Cal, on the same campus, sees nothing of it.
            var inbox = try await client.send(.get, "/v1/market/conversations", token: market.ana).decode(
                Page<Conversation>.self
            )
            #expect(
                inbox.items.map(\.id) == [id] && inbox.items[0].unread == 1
                    && inbox.items[0].lastMessage?.text == first.text
            )
            #expect(inbox.items[0].listing.title == "City bike" && inbox.items[0].buyer.username == "ben")
            #expect(
                try await client.send(.post, "/v1/market/conversations/\(id)/read", token: market.ana).status
                    == .noContent
            )
            inbox = try await client.send(.get, "/v1/market/conversations", token: market.ana).decode(
                Page<Conversation>.self
            )
            #expect(inbox.items[0].unread == 0)
            #expect(
                try await client.send(.get, "/v1/market/conversations/\(id)/messages", token: market.cal).status
                    == .notFound
            )
            let intruder = try await client.send(
                .post,
                "/v1/market/conversations/\(id)/messages",
                json: MessageRequest(text: "hi"),
                token: market.cal
            )
            #expect(intruder.status == .notFound)
            #expect(
                try await client.send(.get, "/v1/market/conversations", token: market.cal).decode(
                    Page<Conversation>.self
                ).items.isEmpty
            )

            // A look-alike link is flagged; an empty message is refused.
            let link = try await Self.say(
                client,
                market.ana,
                id,
                "Pay the deposit at https://p1aza-pay.com/bike please"
            )
            #expect(link.warnings.map(\.code) == [ChatRules.lookalike])
            let empty = try await client.send(
                .post,
                "/v1/market/conversations/\(id)/messages",
                json: MessageRequest(text: "  "),
                token: market.ana
            )
            #expect(empty.problem?.errors?.map(\.field) == ["text"])

            // Paging back through the history, newest first.
            for number in 1...4 { _ = try await Self.say(client, market.ben, id, "Question \(number)") }
            let newest = try await Self.messages(client, market.ana, id, "?limit=3")
            #expect(newest.items.map(\.text) == ["Question 4", "Question 3", "Question 2"])
            let older = try await Self.messages(
                client,
                market.ana,
                id,
                "?limit=3&cursor=\(try #require(newest.nextCursor))"
            )
            #expect(older.items.map(\.text) == ["Question 1", link.text, first.text] && older.nextCursor == nil)

            // Ben deletes it for himself: gone from his list, kept for Ana; her next message brings it back, alone.
            #expect(
                try await client.send(.delete, "/v1/market/conversations/\(id)", token: market.ben).status == .noContent
            )
            #expect(
                try await client.send(.get, "/v1/market/conversations", token: market.ben).decode(
                    Page<Conversation>.self
                ).items.isEmpty
            )
            #expect(try await Self.messages(client, market.ana, id).items.count == 6)
            try await Task.sleep(for: .milliseconds(5))
            _ = try await Self.say(client, market.ana, id, "Are you still interested?")
            let back = try await client.send(.get, "/v1/market/conversations", token: market.ben).decode(
                Page<Conversation>.self
            )
            #expect(back.items.map(\.id) == [id] && back.items[0].unread == 1)
            #expect(try await Self.messages(client, market.ben, id).items.map(\.text) == ["Are you still interested?"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aBlockHidesListingsAndStopsMessagesBothWays(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await Self.market(client, services)
            let opened = try await client.send(
                .post,
                "/v1/market/conversations",
                json: ConversationStart(listingId: market.listing.id),
                token: market.ben
            )
            let id = try opened.decode(Conversation.self).id
            _ = try await Self.say(client, market.ben, id, "Hi!")

            let blocked = try await client.send(.put, "/v1/market/blocks/ben", token: market.ana)
            #expect(try blocked.decode(MarketBlock.self).username == "ben")
            #expect(
                try await client.send(.get, "/v1/market/blocks", token: market.ana).decode(Page<MarketBlock>.self).items
                    .map(\.username) == ["ben"]
            )
            // Ben no longer sees Ana's bike; Cal still does.
            #expect(try await ListingTests.feed(client, market.ben).isEmpty)
            #expect(
                try await client.send(.get, "/v1/market/listings/\(market.listing.id)", token: market.ben).status
                    == .notFound
            )
            #expect(try await ListingTests.feed(client, market.cal) == ["City bike"])
            // Nothing passes either way.
            for token in [market.ben, market.ana] {
                let refused = try await client.send(
                    .post,
                    "/v1/market/conversations/\(id)/messages",
                    json: MessageRequest(text: "?"),
                    token: token
                )
                #expect(refused.status == .forbidden && refused.problem?.code == .blocked)
            }
            #expect(
                try await client.send(.put, "/v1/market/blocks/ana", token: market.ana).status == .notFound,
                "not oneself"
            )

            #expect(try await client.send(.delete, "/v1/market/blocks/ben", token: market.ana).status == .noContent)
            #expect(try await ListingTests.feed(client, market.ben) == ["City bike"])
            _ = try await Self.say(client, market.ben, id, "Thanks")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aBurstOfMessagesAlertsOnceUntilReadOrAQuarterHourOfQuiet(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            try await FollowTests.mailed(client, market.ana)
            let id = try await client.send(
                .post,
                "/v1/market/conversations",
                json: ConversationStart(listingId: market.listing.id),
                token: market.ben
            ).decode(Conversation.self).id
            for text in ["Hi!", "Is the bike still there?", "I could come today."] {
                _ = try await Self.say(client, market.ben, id, text)
            }
            #expect(
                try await FollowTests.alerts(services, "ana") == ["Ben about City bike"],
                "three messages, one alert"
            )
            // Read, the next message alerts again.
            #expect(
                try await client.send(.post, "/v1/market/conversations/\(id)/read", token: market.ana).status
                    == .noContent
            )
            _ = try await Self.say(client, market.ben, id, "Or tomorrow?")
            #expect(try await FollowTests.alerts(services, "ana").count == 2)
            // Unread, but a quarter of an hour later: once more.
            let ben = try #require(try await AccountStore().user(login: "ben", on: services.database.sql))
            _ = try await services.market.send(
                Identity(user: ben, sessionID: UUID()),
                conversation: id,
                text: "Still keen.",
                now: Date().addingTimeInterval(16 * 60)
            )
            #expect(try await FollowTests.alerts(services, "ana").count == 3)
        }
    }
}
