import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The marketplace's Chat tab counts the conversations with messages the student has not read (issue 39).
extension ChatTests {
    @Test(arguments: TestEngine.enabled)
    func theChatTabCountsConversationsWaitingToBeRead(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await Self.market(client, services)
            func unread(_ login: String) async throws -> Int {
                let user = try #require(try await AccountStore().user(login: login, on: services.database.sql))
                return try await services.market.unreadConversations(Identity(user: user, sessionID: UUID()))
            }
            let start = ConversationStart(listingId: market.listing.id)
            let id = try await client.send(.post, "/v1/market/conversations", json: start, token: market.ben)
                .decode(Conversation.self).id
            _ = try await Self.say(client, market.ben, id, "Is the bike still there?")
            _ = try await Self.say(client, market.ben, id, "I could come today.")
            #expect(try await unread("ana") == 1, "one conversation, however many messages")
            #expect(try await unread("ben") == 0, "his own messages wait for nobody")
            _ = try await Self.messages(client, market.ana, id)
            let read = try await client.send(.post, "/v1/market/conversations/\(id)/read", token: market.ana)
            #expect(read.status.code < 300, "\(read.text)")
            #expect(try await unread("ana") == 0, "read")
            _ = try await Self.say(client, market.ana, id, "Yes, come at five.")
            #expect(try await unread("ben") == 1)
            #expect(try await unread("ana") == 0)
        }
    }
}
