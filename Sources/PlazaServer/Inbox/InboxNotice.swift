import Foundation
import PlazaCore
import SQLKit

/// An entry the inbox keeps of its own, published by another domain through the event bus (`FeedMessage.inboxNotice`)
/// when no row of its says it: a moderation decision about the person, with the reason they read.
struct InboxNotice: Codable, Sendable, Hashable {
    var kind: InboxEntryKind
    var title: String
    var note: String?
    var link: String
}

/// A stored notice, as the inbox lists it.
struct NoticeRecord: Sendable {
    var id = UUID.timeOrdered()
    var owner: UUID
    var notice: InboxNotice
    var createdAt: Date

    static let columns = ["id", "owner_id", "kind", "title", "note", "link", "created_at"]

    var values: [any SQLExpression] {
        [
            SQLBind(id), SQLBind(owner), SQLBind(notice.kind.rawValue), SQLBind(notice.title), SQLBind(notice.note),
            SQLBind(notice.link), SQLBind(createdAt),
        ]
    }

    init(owner: UUID, notice: InboxNotice, createdAt: Date) {
        self.owner = owner
        self.notice = notice
        self.createdAt = createdAt
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        owner = try row.decode(column: "owner_id", as: UUID.self)
        notice = InboxNotice(
            kind: InboxEntryKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .decision,
            title: try row.decode(column: "title", as: String.self),
            note: try row.decode(column: "note", as: String?.self),
            link: try row.decode(column: "link", as: String.self)
        )
        createdAt = try row.decode(column: "created_at", as: Date.self)
    }
}
