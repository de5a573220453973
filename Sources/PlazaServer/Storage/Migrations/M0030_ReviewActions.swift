import SQLKit

/// Review items that offer a choice of action (issue 24's reports and appeals): the actions approving may take, the
/// account a suspension acts on, and the action taken.
struct M0030_ReviewActions: Migration {
    let name = "ReviewActions"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // One column per statement: SQLite adds them one at a time.
        try await db.alter(table: "review_items").column("actions", type: .text).run()
        try await db.alter(table: "review_items").column("account_id", type: engine.uuid).run()
        try await db.alter(table: "review_items").column("action", type: .text).run()
    }
}
