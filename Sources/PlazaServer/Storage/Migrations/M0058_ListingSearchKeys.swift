import SQLKit

/// SQLite's word search at the index's speed (issue 43). The FTS5 table's rowid is a listing's `search_key`, a
/// stable integer of the listing's row, instead of a UUID column the search had to read from FTS5's content for every
/// match (20,000 lookups for a common word); the feed's orders carry `search_key` at the end of their indexes, so that
/// the walk newest-first (or by price) tells a match from its index entry without reading the row; and prefix indexes
/// make a word as typed one lookup. A real column, not SQLite's rowid, which `VACUUM` (and so a backup's copy) may
/// renumber. PostgreSQL's `tsvector` column stays as it is.
struct M0058_ListingSearchKeys: Migration {
    let name = "ListingSearchKeys"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        guard engine == .sqlite else { return }
        for statement in [
            "ALTER TABLE listings ADD COLUMN search_key INTEGER",
            "UPDATE listings SET search_key = rowid",
            "CREATE UNIQUE INDEX listings_search_key ON listings (search_key)",
            "DROP INDEX listings_feed",
            "CREATE INDEX listings_feed ON listings (campus_id, state, created_at, search_key)",
            "DROP INDEX listings_category_newest",
            "CREATE INDEX listings_category_newest ON listings (campus_id, state, category, created_at, search_key)",
            "DROP INDEX listings_price",
            "CREATE INDEX listings_price ON listings (campus_id, state, (COALESCE(price, 0)), search_key)",
            "DROP INDEX listings_category_price",
            """
            CREATE INDEX listings_category_price ON listings (campus_id, state, category, (COALESCE(price, 0)), search_key)
            """,
            // Prefix indexes for 2 to 10 letters: a word typed (`"textbook"*`) is one doclist, not the merge of every
            // term it starts (24 for "textbook", joined pairs included: 5.5 ms against 0.8 on the bench's 100,000).
            """
            CREATE VIRTUAL TABLE listings_words USING fts5(body, tokenize = 'unicode61 remove_diacritics 2', \
            prefix = '2 3 4 5 6 7 8 9 10')
            """,
            "DROP TABLE listings_search",
        ] {
            try await db.raw(SQLQueryString(statement)).run()
        }
        // Every listing's entry written with today's rules (M0042 leaves SQLite to this).
        _ = try await ListingStore().reindexAll(on: db) { MarketService.searchBody($0) }
    }
}
