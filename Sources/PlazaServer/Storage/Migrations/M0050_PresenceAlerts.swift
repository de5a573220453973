import SQLKit

/// Staff's "a customer you know walks in" push (issue 40): when each staff member was last told of each customer at
/// each business, so the push repeats at most once in a few hours and counts toward the staff member's hourly limit.
struct M0050_PresenceAlerts: Migration {
    let name = "PresenceAlerts"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "presence_alerts")
            .column("staff_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("customer_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("sent_at", type: engine.timestamp, .notNull)
            .primaryKey("staff_id", "business_id", "customer_id")
            .run()
        try await db.create(index: "presence_alerts_staff").on("presence_alerts").column("staff_id").column("sent_at")
            .run()
    }
}
