import SQLKit

/// Listings sold by bidding (issue 24): the auction's state on its listing row (changed by one conditional update per
/// bid, so concurrent bids take one order), and every price step, proxy bids too.
struct M0031_Bidding: Migration {
    let name = "Bidding"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // One column per statement: SQLite adds them one at a time.
        try await db.alter(table: "listings").column("bidding_ends_at", type: engine.timestamp).run()
        try await db.alter(table: "listings").column("bidding_reserve", type: .bigint).run()
        try await db.alter(table: "listings").column("bidding_current", type: .bigint).run()
        try await db.alter(table: "listings").column("bidding_leader", type: engine.uuid).run()
        try await db.alter(table: "listings").column("bidding_leader_max", type: .bigint).run()
        try await db.alter(table: "listings").column(
            "bidding_count",
            type: .int,
            .notNull,
            .default(SQLLiteral.numeric("0"))
        ).run()
        try await db.alter(table: "listings").column(
            "bidding_closed",
            type: engine.boolean,
            .notNull,
            .default(SQLLiteral.boolean(false))
        ).run()
        try await db.create(index: "listings_bidding_due").on("listings").column("bidding_closed").column(
            "bidding_ends_at"
        ).run()

        try await db.create(table: "market_bids")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("listing_id", type: engine.uuid, .notNull, .references("listings", "id", onDelete: .cascade))
            .column("bidder_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("amount", type: .bigint, .notNull)
            .column("proxy", type: engine.boolean, .notNull)
            // The order of steps within one bid (created_at may tie).
            .column("seq", type: .int, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "market_bids_listing").on("market_bids").column("listing_id").column("seq").run()
    }
}
