import SQLKit

/// Popular times publish a weekday-and-hour cell only when at least 5 distinct people made its visits (issue 18: one
/// account's back-dated stays made a quiet shop's hour "enough data" alone). Each row is a keyed mark of one person in
/// one cell of one location, not their id: it tells the cell's people apart and nothing else, and goes once the
/// popular-times window no longer reaches it.
struct M0006_CrowdPeople: Migration {
    let name = "CrowdPeople"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "visit_people")
            .column(
                "location_id",
                type: engine.uuid,
                .notNull,
                .references("business_locations", "id", onDelete: .cascade)
            )
            .column("weekday", type: .int, .notNull)
            .column("hour", type: .int, .notNull)
            .column("person_mark", type: .text, .notNull)
            .column("last_seen", type: engine.timestamp, .notNull)
            .primaryKey("location_id", "weekday", "hour", "person_mark")
            .run()
    }
}
