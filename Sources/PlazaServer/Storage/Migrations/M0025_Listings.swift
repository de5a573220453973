import SQLKit

/// Campus marketplace listings (issue 24) and their full-text index: SQLite's FTS5 table beside the rows, PostgreSQL's
/// `tsvector` column with a GIN index. `ListingStore.search` is the one method that reads either.
struct M0025_Listings: Migration {
    let name = "Listings"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "listings")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("campus_id", type: engine.uuid, .notNull, .references("campuses", "id", onDelete: .cascade))
            .column("seller_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("state", type: .text, .notNull)
            .column("title", type: .text, .notNull)
            .column("description", type: .text, .notNull)
            // Minor units; null when free (sorted as 0).
            .column("price", type: .bigint)
            .column("currency", type: .text)
            .column("category", type: .text, .notNull)
            .column("condition", type: .text, .notNull)
            // JSON `[UUID]`, in the order shown.
            .column("photo_ids", type: .text, .notNull)
            .column("sold_to", type: engine.uuid)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "listings_feed").on("listings").column("campus_id").column("state").column(
            "created_at"
        ).run()
        try await db.create(index: "listings_seller").on("listings").column("seller_id").column("state").run()
        switch engine {
        case .sqlite:
            try await db.raw(
                """
                CREATE VIRTUAL TABLE listings_search USING fts5(listing_id UNINDEXED, body, tokenize = 'unicode61 remove_diacritics 2')
                """
            ).run()
        case .postgres:
            try await db.raw("ALTER TABLE listings ADD COLUMN search tsvector").run()
            try await db.raw("CREATE INDEX listings_search ON listings USING GIN (search)").run()
        }
    }
}
