import SQLKit

/// A student's marketplace profile beyond their account (issue 24): a short bio and a profile photo.
struct M0033_MarketProfiles: Migration {
    let name = "MarketProfiles"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "market_profiles")
            .column(
                "user_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            .column("bio", type: .text)
            .column("photo_id", type: engine.uuid)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
    }
}
