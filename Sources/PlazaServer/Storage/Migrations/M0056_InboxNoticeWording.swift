import SQLKit

/// An inbox notice's words as catalogue keys with their values (JSON of `NoticeRecord.Kept`, issue 41), so that each reader
/// reads it in the page's language; NULL for a notice kept before, read as its stored English.
struct M0056_InboxNoticeWording: Migration {
    let name = "InboxNoticeWording"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "inbox_notices").column("wording", type: .text).run()
    }
}
