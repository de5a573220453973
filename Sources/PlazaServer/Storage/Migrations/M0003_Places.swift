import SQLKit

/// Places: businesses and their locations and members, location sharing, recorded points, private zones,
/// stays (presence and visits), hourly visit counts, line-wait reports and app passwords.
struct M0003_Places: Migration {
    let name = "Places"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "businesses")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .column("category", type: .text, .notNull)
            .column("description", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()

        try await db.create(table: "business_members")
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("role", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("business_id", "user_id")
            .run()
        try await db.create(index: "business_members_user").on("business_members").column("user_id").run()

        // Opening hours are a small JSON list kept as text (no jsonb: both engines read it the same way).
        try await db.create(table: "business_locations")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("name", type: .text, .notNull)
            .column("address", type: .text, .notNull)
            .column("latitude", type: engine.double, .notNull)
            .column("longitude", type: engine.double, .notNull)
            .column("radius_meters", type: .int, .notNull)
            .column("opening_hours", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "business_locations_business").on("business_locations").column("business_id").run()

        // No row means `off`: sharing is opt-in.
        try await db.create(table: "location_settings")
            .column(
                "user_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            .column("level", type: .text, .notNull)
            .column("zone_display", type: .text, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()

        try await db.create(table: "private_zones")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("name", type: .text, .notNull)
            .column("latitude", type: engine.double, .notNull)
            .column("longitude", type: engine.double, .notNull)
            .column("radius_meters", type: .int, .notNull)
            .column("decoy_latitude", type: engine.double, .notNull)
            .column("decoy_longitude", type: engine.double, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "private_zones_user").on("private_zones").column("user_id").run()

        // The owner's history. A point inside a private zone keeps only the zone (its centre), never the raw fix.
        // (user, time) is the key: a point sent twice is stored once.
        try await db.create(table: "location_points")
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("recorded_at", type: engine.timestamp, .notNull)
            .column("latitude", type: engine.double, .notNull)
            .column("longitude", type: engine.double, .notNull)
            .column("accuracy", type: engine.double)
            .column("zone_id", type: engine.uuid)
            .primaryKey("user_id", "recorded_at")
            .run()
        try await db.create(index: "location_points_recorded").on("location_points").column("recorded_at").run()

        // The newest point of each sharing user: what the in-memory index is rebuilt from.
        try await db.create(table: "live_positions")
            .column(
                "user_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            .column("latitude", type: engine.double, .notNull)
            .column("longitude", type: engine.double, .notNull)
            .column("accuracy", type: engine.double)
            .column("zone_id", type: engine.uuid)
            .column("recorded_at", type: engine.timestamp, .notNull)
            .run()

        // A stay: from the first point inside a location's radius to leaving it (with hysteresis) or going quiet.
        try await db.create(table: "stays")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column(
                "location_id",
                type: engine.uuid,
                .notNull,
                .references("business_locations", "id", onDelete: .cascade)
            )
            .column("entered_at", type: engine.timestamp, .notNull)
            .column("last_seen_at", type: engine.timestamp, .notNull)
            .column("exited_at", type: engine.timestamp)
            .run()
        try await db.create(index: "stays_user").on("stays").column("user_id").column("exited_at").run()
        try await db.create(index: "stays_location").on("stays").column("location_id").column("exited_at").run()

        // Visits (stays of 5 minutes or more) counted per location and hour, with no link to anyone: foot
        // traffic outlives the raw points' retention.
        try await db.create(table: "visit_hours")
            .column(
                "location_id",
                type: engine.uuid,
                .notNull,
                .references("business_locations", "id", onDelete: .cascade)
            )
            .column("hour_start", type: engine.timestamp, .notNull)
            .column("visits", type: .bigint, .notNull)
            .primaryKey("location_id", "hour_start")
            .run()

        try await db.create(table: "line_waits")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column(
                "location_id",
                type: engine.uuid,
                .notNull,
                .references("business_locations", "id", onDelete: .cascade)
            )
            .column("user_id", type: engine.uuid, .references("users", "id", onDelete: .setNull))
            .column("minutes", type: .int, .notNull)
            .column("reported_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "line_waits_location").on("line_waits").column("location_id").column("reported_at")
            .run()

        try await db.create(table: "app_passwords")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("name", type: .text, .notNull)
            .column("secret_hash", type: .text, .notNull, .unique)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("last_used_at", type: engine.timestamp)
            .run()
        try await db.create(index: "app_passwords_user").on("app_passwords").column("user_id").run()
    }
}
