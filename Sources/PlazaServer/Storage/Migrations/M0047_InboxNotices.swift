import SQLKit

/// Entries the inbox keeps of its own (issue 39): what other domains tell a person through the event bus with nothing
/// of theirs to read it from, such as a moderation decision about them with its reason.
struct M0047_InboxNotices: Migration {
    let name = "InboxNotices"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "inbox_notices")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("owner_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("title", type: .text, .notNull)
            .column("note", type: .text)
            .column("link", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "inbox_notices_owner").on("inbox_notices").column("owner_id").column("created_at")
            .run()
    }
}
