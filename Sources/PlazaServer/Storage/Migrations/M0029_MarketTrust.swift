import SQLKit

/// Trust on the campus marketplace (issue 24): ratings between the two sides of a handshake (hidden until both rated
/// or a week passed), reports with the admin's decision and one appeal, follows, wish lists and saved searches.
struct M0029_MarketTrust: Migration {
    let name = "MarketTrust"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "market_ratings")
            .column("listing_id", type: engine.uuid, .notNull, .references("listings", "id", onDelete: .cascade))
            .column("rater_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("ratee_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("role", type: .text, .notNull)
            .column("stars", type: .int, .notNull)
            .column("comment", type: .text)
            .column("created_at", type: engine.timestamp, .notNull)
            // Until then only the rater sees it: set to now for both once the other side rates too.
            .column("shown_at", type: engine.timestamp, .notNull)
            .primaryKey("listing_id", "rater_id")
            .run()
        try await db.create(index: "market_ratings_ratee").on("market_ratings").column("ratee_id").column("shown_at")
            .run()

        try await db.create(table: "market_reports")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("reporter_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("reported_user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("listing_id", type: engine.uuid, .references("listings", "id", onDelete: .cascade))
            .column("conversation_id", type: engine.uuid, .references("market_conversations", "id", onDelete: .cascade))
            .column("reason", type: .text, .notNull)
            .column("details", type: .text)
            // `open`, then `upheld` (with the action and the statement of reasons the reported user reads) or `dismissed`.
            .column("state", type: .text, .notNull)
            .column("action", type: .text)
            .column("statement", type: .text)
            .column("decided_at", type: engine.timestamp)
            // One appeal by the reported user: `open`, then `granted` (the action is undone) or `denied`, with the reason.
            .column("appeal_text", type: .text)
            .column("appeal_state", type: .text)
            .column("appeal_reason", type: .text)
            .column("appealed_at", type: engine.timestamp)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "market_reports_reported").on("market_reports").column("reported_user_id").column(
            "created_at"
        ).run()

        try await db.create(table: "market_follows")
            .column("follower_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("seller_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("created_at", type: engine.timestamp, .notNull)
            // The last new-listing alert this follower had about this seller (at most one an hour).
            .column("notified_at", type: engine.timestamp)
            .primaryKey("follower_id", "seller_id")
            .run()
        try await db.create(index: "market_follows_seller").on("market_follows").column("seller_id").run()

        try await db.create(table: "market_wish_list")
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("listing_id", type: engine.uuid, .notNull, .references("listings", "id", onDelete: .cascade))
            // The price last told (a drop below it notifies).
            .column("price", type: .bigint)
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("user_id", "listing_id")
            .run()
        try await db.create(index: "market_wish_list_listing").on("market_wish_list").column("listing_id").run()

        try await db.create(table: "market_saved_searches")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            // JSON `ListingQuery`.
            .column("query", type: .text, .notNull)
            // `instant` or `daily`.
            .column("alert", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            // Listings created after this have not been told yet (daily digests).
            .column("checked_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "market_saved_searches_user").on("market_saved_searches").column("user_id").run()
    }
}
