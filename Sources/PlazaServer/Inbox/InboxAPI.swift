import Foundation
import Hummingbird
import PlazaCore

/// `/v1/inbox*` of `openapi.yaml`: what happened to the caller, newest first, and what they have seen.
struct InboxAPI: Sendable {
    let inbox: InboxService
    let maxBody: Int

    func addRoutes(to authenticated: RouterGroup<AuthenticatedContext>) {
        authenticated.get("inbox", use: list)
        authenticated.post("inbox/seen", use: markSeen)
    }

    /// Signed in: a page of the caller's inbox with the unread count.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await inbox.inbox(context.identity, limit: paging.limit, cursor: paging.cursor))
    }

    /// Signed in: everything up to a page's `seenMarker` (or up to now) counts as seen.
    @Sendable func markSeen(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: MarkInboxSeenRequest.self, limit: maxBody)
        try await inbox.markSeen(context.identity, through: body.through)
        return .noContent
    }
}
