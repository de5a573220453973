import SQLKit

/// Loyalty punch cards (issue 22): programs of a business, the Ed25519 keys that sign its punch tokens (public halves
/// only: the private ones are derived from the secret key), customers' cards, each counted punch once (its id is the
/// app's, its token once per customer), redeem codes and redemptions.
struct M0017_Loyalty: Migration {
    let name = "Loyalty"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "loyalty_programs")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("title", type: .text, .notNull)
            .column("description", type: .text, .notNull)
            .column("punches_required", type: .int, .notNull)
            .column("reward", type: .text, .notNull)
            // A JSON array of the further levels: [{punchesRequired, reward}].
            .column("levels", type: .text, .notNull)
            .column("expires_at", type: engine.timestamp)
            .column("card_valid_days", type: .int)
            .column("minimum_spend_amount", type: .bigint)
            .column("minimum_spend_currency", type: .text)
            .column("one_card_at_a_time", type: engine.boolean, .notNull)
            .column("velocity_window_minutes", type: .int, .notNull)
            .column("state", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        // One program of a title per business that is not expired.
        try await db.raw(
            "CREATE UNIQUE INDEX loyalty_programs_title ON loyalty_programs (business_id, lower(title)) WHERE state <> 'expired'"
        ).run()

        try await db.create(table: "loyalty_keys")
            .column("key_id", type: .text, .primaryKey(autoIncrement: false))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("public_key", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            // A rotated-out key signs nothing new; tokens it signed before count for the sync grace after.
            .column("retired_at", type: engine.timestamp)
            .run()
        try await db.create(index: "loyalty_keys_business").on("loyalty_keys").column("business_id").column(
            "created_at"
        ).run()
        try await db.create(table: "loyalty_token_counters")
            .column(
                "business_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("businesses", "id", onDelete: .cascade)
            )
            .column("counter", type: .bigint, .notNull)
            .run()
        // The six digits shown beside a token, to type instead of scanning (online only, within the token's window).
        try await db.create(table: "loyalty_punch_codes")
            .column(
                "program_id",
                type: engine.uuid,
                .notNull,
                .references("loyalty_programs", "id", onDelete: .cascade)
            )
            .column("code", type: .text, .notNull)
            .column("token", type: .text, .notNull)
            .column("expires_at", type: engine.timestamp, .notNull)
            .primaryKey("program_id", "code")
            .run()

        try await db.create(table: "loyalty_cards")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column(
                "program_id",
                type: engine.uuid,
                .notNull,
                .references("loyalty_programs", "id", onDelete: .cascade)
            )
            .column("business_id", type: engine.uuid, .notNull)
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("level", type: .int, .notNull)
            .column("title", type: .text, .notNull)
            .column("reward", type: .text, .notNull)
            .column("punches_required", type: .int, .notNull)
            .column("punches", type: .int, .notNull)
            .column("state", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("expires_at", type: engine.timestamp)
            .column("completed_at", type: engine.timestamp)
            .column("redeemed_at", type: engine.timestamp)
            .run()
        try await db.create(index: "loyalty_cards_user").on("loyalty_cards").column("user_id").column("state").column(
            "created_at"
        ).run()
        try await db.create(index: "loyalty_cards_program").on("loyalty_cards").column("program_id").column("state")
            .run()

        try await db.create(table: "loyalty_punches")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("card_id", type: engine.uuid, .notNull, .references("loyalty_cards", "id", onDelete: .cascade))
            .column("program_id", type: engine.uuid, .notNull)
            .column("user_id", type: engine.uuid, .notNull)
            .column("location_id", type: engine.uuid, .notNull)
            // SHA-256 of the token's signed payload: a token counts once per customer.
            .column("token_hash", type: .text, .notNull)
            .column("token_window", type: .bigint, .notNull)
            .column("scanned_at", type: engine.timestamp, .notNull)
            .column("counted_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "loyalty_punches_token").unique().on("loyalty_punches").column("user_id").column(
            "token_hash"
        ).run()
        try await db.create(index: "loyalty_punches_card").on("loyalty_punches").column("card_id").column("counted_at")
            .run()
        // The velocity rule: the customer's punches on the program near a window.
        try await db.create(index: "loyalty_punches_velocity").on("loyalty_punches").column("user_id").column(
            "program_id"
        ).column("token_window")
            .run()
        try await db.create(index: "loyalty_punches_program").on("loyalty_punches").column("program_id").column(
            "counted_at"
        ).run()

        try await db.create(table: "loyalty_redeem_codes")
            .column("code", type: .text, .primaryKey(autoIncrement: false))
            .column("card_id", type: engine.uuid, .notNull, .references("loyalty_cards", "id", onDelete: .cascade))
            .column("business_id", type: engine.uuid, .notNull)
            .column("expires_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(table: "loyalty_redemptions")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("card_id", type: engine.uuid, .notNull, .references("loyalty_cards", "id", onDelete: .cascade))
            .column("program_id", type: engine.uuid, .notNull)
            .column("business_id", type: engine.uuid, .notNull)
            .column("user_id", type: engine.uuid, .notNull)
            .column("location_id", type: engine.uuid, .notNull)
            .column("reward", type: .text, .notNull)
            .column("redeemed_by", type: engine.uuid, .notNull)
            .column("redeemed_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "loyalty_redemptions_card").unique().on("loyalty_redemptions").column("card_id")
            .run()
        try await db.create(index: "loyalty_redemptions_business").on("loyalty_redemptions").column("business_id")
            .column("redeemed_at").run()
    }
}
