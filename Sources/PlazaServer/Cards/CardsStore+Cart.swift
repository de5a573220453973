import Foundation
import PlazaCore
import SQLKit

/// All SQL about shoppers' carts and the sample credits a later order of the same card uses.
extension CardsStore {
    // MARK: Cart

    func cart(owner: UUID, on db: any SQLDatabase) async throws -> [CartRecord] {
        try await db.select().columns("id", "design_id", "paper_id", "kind", "quantity").from("card_cart_items").where(
            "owner_id",
            .equal,
            owner
        )
        .orderBy("created_at").orderBy("id").all().map { row in
            CartRecord(
                id: try row.decode(column: "id", as: UUID.self),
                designId: try row.decode(column: "design_id", as: UUID.self),
                paperId: try row.decode(column: "paper_id", as: UUID.self),
                kind: CardItemKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .print,
                quantity: try row.decode(column: "quantity", as: Int.self)
            )
        }
    }

    func addToCart(_ item: CartRecord, owner: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "card_cart_items").columns(
            "id",
            "owner_id",
            "design_id",
            "paper_id",
            "kind",
            "quantity",
            "created_at"
        )
        .values(
            SQLBind(item.id),
            SQLBind(owner),
            SQLBind(item.designId),
            SQLBind(item.paperId),
            SQLBind(item.kind.rawValue),
            SQLBind(item.quantity),
            SQLBind(now)
        ).run()
    }

    func removeFromCart(_ id: UUID, owner: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "card_cart_items").where("id", .equal, id).where("owner_id", .equal, owner).returning(
            "id"
        ).all().count == 1
    }

    /// A line's new quantity; false when the owner has no such line.
    func setCartQuantity(_ id: UUID, owner: UUID, quantity: Int, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("card_cart_items").set("quantity", to: quantity).where("id", .equal, id).where(
            "owner_id",
            .equal,
            owner
        ).returning("id").all().count == 1
    }

    func emptyCart(owner: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "card_cart_items").where("owner_id", .equal, owner).run()
    }

    // MARK: Sample credits

    /// What the owner's paid, not yet credited samples of each template are worth.
    func sampleCredits(owner: UUID, on db: any SQLDatabase) async throws -> [UUID: Int64] {
        let rows = try await db.raw(
            """
            SELECT i.template_id, CAST(sum(i.amount) AS BIGINT) AS credit FROM card_order_items i JOIN card_orders o ON o.id = i.order_id
            WHERE o.owner_id = \(bind: owner) AND i.kind = 'sample' AND i.credited_to IS NULL
            AND o.status IN ('paid', 'in_production', 'shipped') GROUP BY i.template_id
            """
        ).all()
        var credits: [UUID: Int64] = [:]
        for row in rows {
            credits[try row.decode(column: "template_id", as: UUID.self)] = try row.decode(
                column: "credit",
                as: Int64.self
            )
        }
        return credits
    }

    /// Marks the owner's uncredited samples of `templates` as credited to `order`: those paid earlier and the order's
    /// own (a sample ordered beside prints of its template is credited there, not again later).
    func useSampleCredits(owner: UUID, templates: [UUID], order: UUID, on db: any SQLDatabase) async throws {
        guard !templates.isEmpty else { return }
        try await db.raw(
            """
            UPDATE card_order_items SET credited_to = \(bind: order) WHERE kind = 'sample' AND credited_to IS NULL
            AND template_id IN \(SQLBind.group(templates)) AND (order_id = \(bind: order) OR order_id IN (SELECT id FROM card_orders
            WHERE owner_id = \(bind: owner) AND status IN ('paid', 'in_production', 'shipped')))
            """
        ).run()
    }

    /// A cancelled order gives its samples' credit back.
    func releaseSampleCredits(order: UUID, on db: any SQLDatabase) async throws {
        try await db.update("card_order_items").set("credited_to", to: SQLLiteral.null).where(
            "credited_to",
            .equal,
            order
        ).run()
    }
}
