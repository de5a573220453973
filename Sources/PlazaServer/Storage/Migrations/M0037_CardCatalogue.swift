import SQLKit

/// The card shop's catalogue and saved designs (issue 25): categories and subcategories, paper types with their price
/// tiers, designers' art and templates (every saved version kept, so a design made from one keeps working), and designs.
struct M0037_CardCatalogue: Migration {
    let name = "CardCatalogue"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "card_categories")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            // A subcategory's category; null for a category.
            .column("parent_id", type: engine.uuid, .references("card_categories", "id", onDelete: .cascade))
            .column("name", type: .text, .notNull)
            .column("position", type: .int, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(table: "card_papers")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .column("description", type: .text)
            .column("sample_amount", type: .bigint, .notNull)
            .column("currency", type: .text, .notNull)
            // JSON [{minQuantity, unitAmount}], ascending.
            .column("tiers", type: .text, .notNull)
            .column("position", type: .int, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(table: "card_art")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("owner_id", type: engine.uuid, .references("users", "id", onDelete: .setNull))
            .column("content_type", type: .text, .notNull)
            .column("width", type: engine.double, .notNull)
            .column("height", type: engine.double, .notNull)
            // SVG: the clean SVG Plaza wrote from what it parsed (never the upload itself); PNG: the bytes as sent.
            .column("bytes", type: .blob, .notNull)
            .column("digest", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(table: "card_templates")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("designer_id", type: engine.uuid, .references("users", "id", onDelete: .setNull))
            .column("name", type: .text, .notNull)
            .column("category_id", type: engine.uuid, .notNull, .references("card_categories", "id"))
            .column("subcategory_id", type: engine.uuid, .references("card_categories", "id"))
            .column("state", type: .text, .notNull)
            // The newest saved version, and the one the catalogue shows (null until an admin first approves).
            .column("version", type: .int, .notNull)
            .column("published_version", type: .int)
            .column("rejection_reason", type: .text)
            // The published version's colour names, lower case, as "|ivory|navy|": the catalogue's colour filter.
            .column("colour_names", type: .text, .notNull, .default(SQLLiteral.string("")))
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "card_templates_catalogue").on("card_templates").column("category_id").column(
            "state"
        ).run()
        try await db.create(table: "card_template_versions")
            .column("template_id", type: engine.uuid, .notNull, .references("card_templates", "id", onDelete: .cascade))
            .column("version", type: .int, .notNull)
            // JSON `CardTemplateSpec`: trim, pages, colours with art, labels.
            .column("spec", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("template_id", "version")
            .run()
        try await db.create(table: "card_template_papers")
            .column("template_id", type: engine.uuid, .notNull, .references("card_templates", "id", onDelete: .cascade))
            .column("paper_id", type: engine.uuid, .notNull, .references("card_papers", "id"))
            .column("position", type: .int, .notNull)
            .primaryKey("template_id", "paper_id")
            .run()
        try await db.create(table: "card_designs")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("owner_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("template_id", type: engine.uuid, .notNull, .references("card_templates", "id"))
            .column("template_version", type: .int, .notNull)
            .column("name", type: .text, .notNull)
            .column("colour", type: .text, .notNull)
            // JSON [CardLabelValue].
            .column("labels", type: .text, .notNull)
            // An order of it went to production: no more changes.
            .column("locked", type: engine.boolean, .notNull, .default(SQLLiteral.boolean(false)))
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "card_designs_owner").on("card_designs").column("owner_id").column("updated_at")
            .run()
    }
}
