import SQLKit

/// The feed's other orders and filters (issue 24, from `plaza bench market`): by category, and by price (a free
/// listing's price counts as 0, as the feed's filters and sort read it), so that a filtered, price-sorted page reads
/// an index range in order instead of every listing of the campus.
struct M0035_ListingOrderIndexes: Migration {
    let name = "ListingOrderIndexes"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // Expression indexes: both engines take a parenthesised expression among the columns.
        try await db.raw("CREATE INDEX listings_price ON listings (campus_id, state, (COALESCE(price, 0)))").run()
        try await db.raw(
            "CREATE INDEX listings_category_price ON listings (campus_id, state, category, (COALESCE(price, 0)))"
        ).run()
        try await db.create(index: "listings_category_newest").on("listings").column("campus_id").column("state")
            .column("category")
            .column("created_at").run()
    }
}
