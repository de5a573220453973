import SQLKit

/// Platform tables shared by every domain: idempotency keys, rate-limit events, the mail outbox.
struct M0002_Platform: Migration {
    let name = "Platform"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // One row per (caller, key): the request's hash and, once finished, the response to replay.
        try await db.create(table: "idempotency_keys")
            .column("scope", type: .text, .notNull)
            .column("key", type: .text, .notNull)
            .column("request_hash", type: .text, .notNull)
            .column("status", type: .int)
            .column("content_type", type: .text)
            .column("body", type: .text)
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("scope", "key")
            .run()
        try await db.create(index: "idempotency_keys_created").on("idempotency_keys").column("created_at").run()

        // Failures and requests counted over a sliding window, shared by every Plaza process.
        try await db.create(table: "rate_limit_events")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("bucket", type: .text, .notNull)
            .column("subject", type: .text, .notNull)
            .column("occurred_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "rate_limit_events_lookup").on("rate_limit_events")
            .column("bucket").column("subject").column("occurred_at").run()

        // Mail is written here in the same transaction as the change that causes it, then delivered.
        try await db.create(table: "outbox_emails")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("to_address", type: .text, .notNull)
            .column("subject", type: .text, .notNull)
            .column("text_body", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("next_attempt_at", type: engine.timestamp, .notNull)
            .column("attempts", type: .int, .notNull)
            .column("locked_until", type: engine.timestamp)
            .column("sent_at", type: engine.timestamp)
            .column("last_error", type: .text)
            .run()
        try await db.create(index: "outbox_emails_due").on("outbox_emails").column("sent_at").column("next_attempt_at")
            .run()
    }
}
