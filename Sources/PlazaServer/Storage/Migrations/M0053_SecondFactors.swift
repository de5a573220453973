import SQLKit

/// Second factors before money leaves (issue 40): authenticator apps (TOTP, the secret sealed with the server's key,
/// the last time step used so a code passes once) and passkeys, and each account's recovery codes (keyed hashes).
struct M0053_SecondFactors: Migration {
    let name = "SecondFactors"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "second_factors")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            .column("name", type: .text, .notNull)
            .column("secret", type: .text, .notNull)
            .column("confirmed", type: engine.boolean, .notNull)
            .column("last_step", type: .bigint)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("last_used_at", type: engine.timestamp)
            .run()
        try await db.create(index: "second_factors_user").on("second_factors").column("user_id").run()
        try await db.create(table: "recovery_codes")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("code_hash", type: .text, .notNull)
            .column("used_at", type: engine.timestamp)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "recovery_codes_user").on("recovery_codes").column("user_id").column("code_hash")
            .run()
    }
}
