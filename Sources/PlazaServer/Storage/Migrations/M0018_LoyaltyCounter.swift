import SQLKit

/// Loyalty at the counter and beyond (issue 22): the codes customers show for staff to scan (an active card's punch
/// code), customers' consent to show a business their own card history, and the `has_loyalty` mark Places keeps on a
/// business that runs a program (the search's `hasLoyalty` filter).
struct M0018_LoyaltyCounter: Migration {
    let name = "LoyaltyCounter"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "loyalty_card_codes")
            .column("code", type: .text, .primaryKey(autoIncrement: false))
            .column("card_id", type: engine.uuid, .notNull, .references("loyalty_cards", "id", onDelete: .cascade))
            .column("business_id", type: engine.uuid, .notNull)
            .column("expires_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(table: "loyalty_sharing")
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("user_id", "business_id")
            .run()
        try await db.alter(table: "businesses").column(
            "has_loyalty",
            type: engine.boolean,
            .notNull,
            .default(SQLLiteral.boolean(false))
        ).run()
        try await db.update("businesses").set("has_loyalty", to: true)
            .where(
                SQLColumn("id"),
                .in,
                SQLSubquery.select {
                    $0.column("business_id").from("loyalty_programs").where("state", .equal, "active")
                }
            )
            .run()
    }
}
