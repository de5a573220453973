import SQLKit

/// The card shop's cart and orders (issue 25): each order line keeps the SHA-256 of the print file its shopper approved,
/// and that file itself, so production prints exactly what was approved; samples bought are credited once.
struct M0038_CardOrders: Migration {
    let name = "CardOrders"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "card_cart_items")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("owner_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("design_id", type: engine.uuid, .notNull, .references("card_designs", "id", onDelete: .cascade))
            .column("paper_id", type: engine.uuid, .notNull, .references("card_papers", "id"))
            .column("kind", type: .text, .notNull)
            .column("quantity", type: .int, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "card_cart_items_owner").on("card_cart_items").column("owner_id").column(
            "created_at"
        ).run()
        try await db.create(table: "card_orders")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            // An account with an order at the printer cannot be deleted (the accounts' erasure check); later ones go with it.
            .column("owner_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("status", type: .text, .notNull)
            // JSON `CardShippingAddress`.
            .column("shipping_address", type: .text, .notNull)
            .column("subtotal", type: .bigint, .notNull)
            .column("credit", type: .bigint, .notNull)
            .column("shipping", type: .bigint, .notNull)
            .column("tax", type: .bigint, .notNull)
            .column("total", type: .bigint, .notNull)
            .column("currency", type: .text, .notNull)
            .column("payment_method", type: .text)
            // A card payment's top-up in the wallet, while it settles.
            .column("payment_reference", type: engine.uuid)
            .column("checkout_url", type: .text)
            .column("cancel_reason", type: .text)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .column("paid_at", type: engine.timestamp)
            .column("shipped_at", type: engine.timestamp)
            .run()
        try await db.create(index: "card_orders_owner").on("card_orders").column("owner_id").column("created_at").run()
        try await db.create(index: "card_orders_payment").on("card_orders").column("payment_reference").run()
        try await db.create(table: "card_order_items")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("order_id", type: engine.uuid, .notNull, .references("card_orders", "id", onDelete: .cascade))
            .column("design_id", type: engine.uuid, .notNull, .references("card_designs", "id"))
            .column("template_id", type: engine.uuid, .notNull, .references("card_templates", "id"))
            .column("design_name", type: .text, .notNull)
            .column("paper_id", type: engine.uuid, .notNull, .references("card_papers", "id"))
            .column("paper_name", type: .text, .notNull)
            .column("kind", type: .text, .notNull)
            .column("quantity", type: .int, .notNull)
            .column("unit_amount", type: .bigint, .notNull)
            .column("amount", type: .bigint, .notNull)
            .column("proof_sha256", type: .text, .notNull)
            // A paid sample's price, taken off a later order of its template: that order (once).
            .column("credited_to", type: engine.uuid, .references("card_orders", "id", onDelete: .setNull))
            .run()
        try await db.create(index: "card_order_items_order").on("card_order_items").column("order_id").run()
        try await db.create(table: "card_proofs")
            .column("sha256", type: .text, .primaryKey(autoIncrement: false))
            .column("bytes", type: .blob, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
    }
}
