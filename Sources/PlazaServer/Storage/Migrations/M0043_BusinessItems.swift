import SQLKit

/// A counter that works like a point of sale (issue 39): the business keeps the items it sells with their prices, each
/// name once per business (compared lower-cased).
struct M0043_BusinessItems: Migration {
    let name = "BusinessItems"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "business_items")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("name", type: .text, .notNull)
            .column("name_key", type: .text, .notNull)
            .column("price_amount", type: .bigint, .notNull)
            .column("price_currency", type: .text, .notNull)
            .column("category", type: .text)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "business_items_name").on("business_items").column("business_id").column("name_key")
            .unique().run()
    }
}
