import Foundation
import PlazaCore

extension PlazaClient {
    /// The caller's inbox, newest first: charges asked of them, answers to charges they sent, money that arrived; with
    /// how many are unread. Pass `nextCursor` back for older entries.
    public func inbox(limit: Int? = nil, cursor: String? = nil) async throws -> InboxPage {
        try await send(
            "GET",
            "v1/inbox",
            query: Self.query(["limit": limit.map(String.init), "cursor": cursor]),
            auth: .required
        )
    }

    /// Marks everything up to the entry `marker` names (an `InboxPage.seenMarker`) as seen; without it, up to now.
    public func markInboxSeen(through marker: String? = nil) async throws {
        try await sendVoid("POST", "v1/inbox/seen", body: MarkInboxSeenRequest(through: marker), auth: .required)
    }
}
