import SQLKit

/// Accounts: users, their signed-in sessions, rotating refresh tokens and e-mailed codes.
struct M0001_Accounts: Migration {
    let name = "Accounts"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // E-mail and username are stored normalized (trimmed, lower-case), so plain UNIQUE is case-insensitive.
        try await db.create(table: "users")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("email", type: .text, .notNull, .unique)
            .column("username", type: .text, .notNull, .unique)
            .column("display_name", type: .text, .notNull)
            .column("password_hash", type: .text, .notNull)
            .column("role", type: .text, .notNull)
            .column("email_verified", type: engine.boolean, .notNull)
            .column("birth_date", type: .text)
            .column("gender", type: .text)
            .column("student", type: engine.boolean, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .column("deleted_at", type: engine.timestamp)
            .run()

        // A session is one signed-in device: an API refresh-token family or a web cookie.
        try await db.create(table: "sessions")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("device", type: .text, .notNull)
            .column("web_token_hash", type: .text, .unique)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("last_seen_at", type: engine.timestamp, .notNull)
            .column("expires_at", type: engine.timestamp, .notNull)
            .column("revoked_at", type: engine.timestamp)
            .run()
        try await db.create(index: "sessions_user").on("sessions").column("user_id").run()

        // Only hashes are stored; `used_at` marks a rotated token, whose re-use revokes its session.
        try await db.create(table: "refresh_tokens")
            .column("token_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("session_id", type: engine.uuid, .notNull, .references("sessions", "id", onDelete: .cascade))
            .column("created_at", type: engine.timestamp, .notNull)
            .column("used_at", type: engine.timestamp)
            .run()
        try await db.create(index: "refresh_tokens_session").on("refresh_tokens").column("session_id").run()

        try await db.create(table: "email_codes")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("purpose", type: .text, .notNull)
            .column("email", type: .text, .notNull)
            .column("code_hash", type: .text, .notNull)
            .column("attempts", type: .int, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("expires_at", type: engine.timestamp, .notNull)
            .column("consumed_at", type: engine.timestamp)
            .run()
        try await db.create(index: "email_codes_user").on("email_codes").column("user_id").column("purpose").run()
    }
}
