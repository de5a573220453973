import SQLKit

/// Paying earns the punch (issue 39): a program may punch the payer's card when a Plaza charge at its business is
/// paid (one punch, or one per so much spent), each charge's punches on each program once (the charge and program are
/// the key), with what the card held after them for the charge's `loyalty`; and a customer's consent that paying may
/// take a first card.
struct M0040_LoyaltyOnPayment: Migration {
    let name = "LoyaltyOnPayment"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "loyalty_programs").column(
            "earn_on_payment",
            type: engine.boolean,
            .notNull,
            .default(SQLLiteral.boolean(false))
        ).run()
        // Both null: a punch a purchase; else one for each whole amount spent.
        try await db.alter(table: "loyalty_programs").column("punch_per_amount", type: .bigint).run()
        try await db.alter(table: "loyalty_programs").column("punch_per_currency", type: .text).run()

        try await db.create(table: "loyalty_payment_punches")
            .column("charge_id", type: engine.uuid, .notNull)
            .column(
                "program_id",
                type: engine.uuid,
                .notNull,
                .references("loyalty_programs", "id", onDelete: .cascade)
            )
            .column("card_id", type: engine.uuid, .notNull, .references("loyalty_cards", "id", onDelete: .cascade))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("punches_added", type: .int, .notNull)
            // The card after them, as the charge's `loyalty` shows it.
            .column("punches", type: .int, .notNull)
            .column("punches_required", type: .int, .notNull)
            .column("completed", type: engine.boolean, .notNull)
            // Punches a refund took back.
            .column("taken_back", type: .int, .notNull, .default(SQLLiteral.numeric("0")))
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("charge_id", "program_id")
            .run()
        try await db.create(index: "loyalty_payment_punches_card").on("loyalty_payment_punches").column("card_id")
            .run()

        try await db.create(table: "loyalty_settings")
            .column(
                "user_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            .column("card_on_payment", type: engine.boolean, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
    }
}
