import SQLKit

/// Passkeys (issue 40): the challenges Plaza gave out to make one or to prove a payment with one. Each is spent once,
/// by the request whose conditional update marks it used, and lives five minutes.
struct M0054_PasskeyChallenges: Migration {
    let name = "PasskeyChallenges"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "passkey_challenges")
            .column("challenge", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("purpose", type: .text, .notNull)
            .column("expires_at", type: engine.timestamp, .notNull)
            .column("used_at", type: engine.timestamp)
            .run()
        try await db.create(index: "passkey_challenges_user").on("passkey_challenges").column("user_id").run()
    }
}
