import SQLKit

/// Deals between students (issue 24): price offers with the buyer's money held until the handshake, meetups in a
/// conversation, and the seller's single-use handshake (only keyed hashes of its code and token are kept).
struct M0028_MarketDeals: Migration {
    let name = "MarketDeals"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "market_offers")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("listing_id", type: engine.uuid, .notNull, .references("listings", "id", onDelete: .cascade))
            .column(
                "conversation_id",
                type: engine.uuid,
                .notNull,
                .references("market_conversations", "id", onDelete: .cascade)
            )
            .column("buyer_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("seller_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("amount", type: .bigint, .notNull)
            .column("currency", type: .text, .notNull)
            .column("state", type: .text, .notNull)
            .column("proposed_by", type: engine.uuid, .notNull)
            // The held payment: `held`, `released` or `refunded`, with its amount (the ledger's entries name the offer).
            .column("payment_state", type: .text)
            .column("payment_amount", type: .bigint)
            .column("paid_at", type: engine.timestamp)
            .column("settled_at", type: engine.timestamp)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "market_offers_listing").on("market_offers").column("listing_id").column(
            "created_at"
        ).run()
        try await db.create(index: "market_offers_conversation").on("market_offers").column("conversation_id").run()

        try await db.create(table: "market_meetups")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column(
                "conversation_id",
                type: engine.uuid,
                .notNull,
                .references("market_conversations", "id", onDelete: .cascade)
            )
            .column("listing_id", type: engine.uuid, .notNull, .references("listings", "id", onDelete: .cascade))
            .column("proposed_by", type: engine.uuid, .notNull)
            .column("spot_id", type: engine.uuid)
            .column("spot_name", type: .text)
            .column("latitude", type: engine.double, .notNull)
            .column("longitude", type: engine.double, .notNull)
            .column("at", type: engine.timestamp, .notNull)
            .column("window_end", type: engine.timestamp, .notNull)
            .column("state", type: .text, .notNull)
            // The live handshake: keyed hashes of its code and its token's nonce, wrong codes typed against it.
            .column("code_hash", type: .text)
            .column("token_hash", type: .text)
            .column("handshake_expires_at", type: engine.timestamp)
            .column("handshake_attempts", type: .int, .notNull, .default(SQLLiteral.numeric("0")))
            .column("created_at", type: engine.timestamp, .notNull)
            .column("decided_at", type: engine.timestamp)
            .run()
        try await db.create(index: "market_meetups_conversation").on("market_meetups").column("conversation_id").column(
            "created_at"
        ).run()
        try await db.create(index: "market_meetups_due").on("market_meetups").column("state").column("window_end").run()
    }
}
