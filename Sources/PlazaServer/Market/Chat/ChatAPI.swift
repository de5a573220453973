import Foundation
import Hummingbird
import PlazaCore

/// `/v1/market/conversations*` of `openapi.yaml`: open one about a listing, list mine, read and send messages, mark
/// read, delete for me.
struct ChatAPI: Sendable {
    let market: MarketService
    let maxBody: Int

    func addRoutes(to authenticated: RouterGroup<AuthenticatedContext>) {
        authenticated.post("market/conversations", use: start)
        authenticated.get("market/conversations", use: conversations)
        authenticated.get("market/conversations/:id", use: conversation)
        authenticated.delete("market/conversations/:id", use: delete)
        authenticated.get("market/conversations/:id/messages", use: messages)
        authenticated.post("market/conversations/:id/messages", use: send)
        authenticated.post("market/conversations/:id/read", use: read)
        authenticated.get("market/blocks", use: blocks)
        authenticated.put("market/blocks/:username", use: block)
        authenticated.delete("market/blocks/:username", use: unblock)
    }

    @Sendable func blocks(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await market.blocks(context.identity), nextCursor: nil))
    }

    @Sendable func block(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.block(context.identity, username: context.parameters.get("username") ?? ""))
    }

    @Sendable func unblock(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await market.unblock(context.identity, username: context.parameters.get("username") ?? "")
        return Response(status: .noContent)
    }

    @Sendable func start(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ConversationStart.self, limit: maxBody)
        let (conversation, created) = try await market.startConversation(context.identity, listing: body.listingId)
        return try .json(conversation, status: created ? .created : .ok)
    }

    @Sendable func conversations(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await market.conversations(context.identity, limit: paging.limit, cursor: paging.cursor))
    }

    @Sendable func conversation(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await market.conversation(context.identity, try Query.id(context.parameters, "id", "conversation"))
        )
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await market.deleteConversation(context.identity, try Query.id(context.parameters, "id", "conversation"))
        return Response(status: .noContent)
    }

    @Sendable func messages(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let before = try paging.cursor.map { try RowCursor.decode($0).id }
        let id = try Query.id(context.parameters, "id", "conversation")
        return try .json(
            try await market.messages(context.identity, conversation: id, before: before, limit: paging.limit)
        )
    }

    @Sendable func send(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: MessageRequest.self, limit: maxBody)
        let id = try Query.id(context.parameters, "id", "conversation")
        return try .json(try await market.send(context.identity, conversation: id, text: body.text), status: .created)
    }

    @Sendable func read(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await market.markRead(
            context.identity,
            conversation: try Query.id(context.parameters, "id", "conversation")
        )
        return Response(status: .noContent)
    }
}
