import SQLKit

/// The campus marketplace's foundation (issue 24): the operator's campuses and their safe spots, the accounts that
/// proved a campus address (each address verifies one account), who signed which version of the agreement, and the
/// operator's listing categories.
struct M0023_Campuses: Migration {
    let name = "Campuses"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "campuses")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            // JSON `[String]`: `uni.edu`, `*.uni.edu`.
            .column("domains", type: .text, .notNull)
            .column("center_latitude", type: engine.double, .notNull)
            .column("center_longitude", type: engine.double, .notNull)
            // JSON `[Coordinate]`, when drawn.
            .column("boundary", type: .text)
            // JSON `[String]` of `YYYY-MM-DD`.
            .column("term_ends", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()

        try await db.create(table: "safe_spots")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("campus_id", type: engine.uuid, .notNull, .references("campuses", "id", onDelete: .cascade))
            .column("name", type: .text, .notNull)
            .column("latitude", type: engine.double, .notNull)
            .column("longitude", type: engine.double, .notNull)
            .column("description", type: .text, .notNull)
            .column("hours", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "safe_spots_campus").on("safe_spots").column("campus_id").run()

        try await db.create(table: "campus_members")
            .column(
                "user_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            .column("campus_id", type: engine.uuid, .notNull, .references("campuses", "id", onDelete: .cascade))
            // Lower-cased; never shown on a listing or profile.
            .column("email", type: .text, .notNull, .unique)
            .column("verified_at", type: engine.timestamp, .notNull)
            .column("verified_until", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "campus_members_campus").on("campus_members").column("campus_id").run()

        try await db.create(table: "market_agreements")
            .column(
                "user_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            // Null once unsigned; the row keeps when.
            .column("signed_version", type: .int)
            .column("signed_at", type: engine.timestamp)
            .column("unsigned_at", type: engine.timestamp)
            .run()

        try await db.create(table: "market_categories")
            .column("slug", type: .text, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .column("position", type: .int, .notNull)
            .run()
        for (position, category) in [
            ("textbooks", "Textbooks"), ("furniture", "Furniture"), ("electronics", "Electronics"),
            ("clothing", "Clothing"),
            ("dorm_supplies", "Dorm supplies"), ("tickets", "Tickets"), ("other", "Other"),
        ].enumerated() {
            try await db.insert(into: "market_categories").columns("slug", "name", "position")
                .values(SQLBind(category.0), SQLBind(category.1), SQLBind(position)).run()
        }
    }
}
