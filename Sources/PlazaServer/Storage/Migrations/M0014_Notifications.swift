import SQLKit

/// Push notifications (issue 21): the devices a user receives them on, how each kind reaches them, and the durable
/// outbox: one notification per person (written in the transaction of what it reports), fanned out into one delivery
/// per device, each retried on its own.
struct M0014_Notifications: Migration {
    let name = "Notifications"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "push_devices")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("platform", type: .text, .notNull)
            .column("name", type: .text, .notNull)
            // Web Push: the subscription; APNs: the device token and the app's topic. `address` is either, unique.
            .column("address", type: .text, .notNull)
            .column("p256dh", type: .text)
            .column("auth", type: .text)
            .column("topic", type: .text)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("last_delivered_at", type: engine.timestamp)
            .run()
        try await db.create(index: "push_devices_address").unique().on("push_devices").column("address").run()
        try await db.create(index: "push_devices_user").on("push_devices").column("user_id").run()

        try await db.create(table: "notification_preferences")
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("push", type: engine.boolean, .notNull)
            .column("email", type: engine.boolean, .notNull)
            .primaryKey("user_id", "kind")
            .run()
        try await db.create(table: "notification_quiet_hours")
            .column(
                "user_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            .column("quiet_from", type: .text, .notNull)
            .column("quiet_until", type: .text, .notNull)
            .run()

        try await db.create(table: "notifications")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("title", type: .text, .notNull)
            .column("body", type: .text, .notNull)
            .column("link", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            // Set once its deliveries (and mail) are written; until then a sender claims it for a while.
            .column("fanned_out_at", type: engine.timestamp)
            .column("locked_until", type: engine.timestamp)
            .run()
        try await db.create(index: "notifications_waiting").on("notifications").column("fanned_out_at").column(
            "created_at"
        ).run()
        try await db.create(index: "notifications_user").on("notifications").column("user_id").column("created_at")
            .run()

        try await db.create(table: "push_deliveries")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column(
                "notification_id",
                type: engine.uuid,
                .notNull,
                .references("notifications", "id", onDelete: .cascade)
            )
            .column("device_id", type: engine.uuid, .notNull, .references("push_devices", "id", onDelete: .cascade))
            .column("next_attempt_at", type: engine.timestamp, .notNull)
            .column("locked_until", type: engine.timestamp)
            .column("attempts", type: .int, .notNull)
            .column("sent_at", type: engine.timestamp)
            .column("last_error", type: .text)
            .run()
        try await db.create(index: "push_deliveries_due").on("push_deliveries").column("sent_at").column(
            "next_attempt_at"
        ).run()
    }
}
