import SQLKit

/// Blocks between students (issue 24): a block hides each side's listings from the other and stops messages both ways.
struct M0027_MarketBlocks: Migration {
    let name = "MarketBlocks"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "market_blocks")
            .column("blocker_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("blocked_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("blocker_id", "blocked_id")
            .run()
        try await db.create(index: "market_blocks_blocked").on("market_blocks").column("blocked_id").run()
    }
}
