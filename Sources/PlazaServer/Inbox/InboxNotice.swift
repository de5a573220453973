import Foundation
import PlazaCore
import SQLKit

/// An entry the inbox keeps of its own, published by another domain through the event bus (`FeedMessage.inboxNotice`)
/// when no row of its says it: a moderation decision about the person, with the reason they read.
struct InboxNotice: Codable, Sendable, Hashable {
    var kind: InboxEntryKind
    /// The English title and note, for a reader without words of their own (and notices kept before `wording`).
    var title: String
    var note: String?
    var link: String
    /// The title and the note as catalogue keys with their values: read in the reader's language.
    var wording: Wording?
    var fullStop = false

    /// A notice in each reader's language, its English made from the same words. An alert's title (no full stop)
    /// reads as a sentence in the inbox: `fullStop` ends it with one, in every language.
    init(kind: InboxEntryKind, link: String, _ wording: Wording, fullStop: Bool = false) {
        let english = wording.english(kind: .account, link: link)
        self.init(
            kind: kind,
            title: english.title + (fullStop ? "." : ""),
            note: english.body.isEmpty ? nil : english.body,
            link: link
        )
        self.wording = wording
        self.fullStop = fullStop
    }

    init(kind: InboxEntryKind, title: String, note: String?, link: String, wording: Wording? = nil) {
        self.kind = kind
        self.title = title
        self.note = note
        self.link = link
        self.wording = wording
    }

    /// The title and the note in `words`' language.
    func said(in words: Catalogue.Words) -> (title: String, note: String?) {
        guard let wording else { return (title, note) }
        let said = wording.content(kind: .account, link: link, in: words)
        return (said.title + (fullStop ? "." : ""), said.body.isEmpty ? nil : said.body)
    }
}

/// A stored notice, as the inbox lists it.
struct NoticeRecord: Sendable {
    var id = UUID.timeOrdered()
    var owner: UUID
    var notice: InboxNotice
    var createdAt: Date

    static let columns = ["id", "owner_id", "kind", "title", "note", "link", "created_at", "wording"]

    /// The `wording` column's JSON: the words and whether the inbox ends their title with a full stop.
    struct Kept: Codable {
        var wording: Wording
        var fullStop: Bool
    }

    var values: [any SQLExpression] {
        [
            SQLBind(id), SQLBind(owner), SQLBind(notice.kind.rawValue), SQLBind(notice.title), SQLBind(notice.note),
            SQLBind(notice.link), SQLBind(createdAt),
            SQLBind(
                try? notice.wording.map {
                    String(
                        decoding: try JSONEncoder().encode(Kept(wording: $0, fullStop: notice.fullStop)),
                        as: UTF8.self
                    )
                }
            ),
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
        if let kept = try row.decode(column: "wording", as: String?.self).flatMap({
            try? JSONDecoder().decode(Kept.self, from: Data($0.utf8))
        }) {
            (notice.wording, notice.fullStop) = (kept.wording, kept.fullStop)
        }
        createdAt = try row.decode(column: "created_at", as: Date.self)
    }
}
