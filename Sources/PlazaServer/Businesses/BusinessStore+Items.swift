import Foundation
import PlazaCore
import SQLKit

/// The SQL of the items a business sells at its counter.
extension BusinessStore {
    private static let itemColumns = [
        "id", "business_id", "name", "price_amount", "price_currency", "category", "created_at", "updated_at",
    ]

    /// Files a new item; false when the business has one of that name already (nothing written).
    func insert(_ item: BusinessItem, business: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.insert(into: "business_items")
            .columns(Self.itemColumns + ["name_key"])
            .values(
                SQLBind(item.id),
                SQLBind(business),
                SQLBind(item.name),
                SQLBind(item.price.amount),
                SQLBind(item.price.currency),
                SQLBind(item.category),
                SQLBind(item.createdAt),
                SQLBind(item.updatedAt),
                SQLBind(item.name.lowercased())
            )
            .ignoringConflicts(with: ["business_id", "name_key"]).returning("id").first() != nil
    }

    /// The business's items by category (those without one first), then name; `limit` from `offset`.
    func items(business: UUID, limit: Int, offset: Int, on db: any SQLDatabase) async throws -> [BusinessItem] {
        try await db.select().columns(Self.itemColumns.map { SQLIdentifier($0) }).from("business_items")
            .where("business_id", .equal, business)
            .orderBy(SQLFunction("coalesce", args: SQLIdentifier("category"), SQLLiteral.string("")))
            .orderBy("name_key").orderBy("id")
            .limit(limit).offset(offset).all().map(Self.item)
    }

    /// One item of the business, locked for a change when asked.
    func item(_ id: UUID, business: UUID, forUpdate: Bool = false, on db: any SQLDatabase) async throws -> BusinessItem?
    {
        let select = db.select().columns(Self.itemColumns.map { SQLIdentifier($0) }).from("business_items")
            .where("id", .equal, id).where("business_id", .equal, business)
        if forUpdate { select.for(.update) }
        return try await select.first().map(Self.item)
    }

    /// The business's items among `ids` (another business's or a removed one is not there).
    func items(ids: Set<UUID>, business: UUID, on db: any SQLDatabase) async throws -> [UUID: BusinessItem] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await db.select().columns(Self.itemColumns.map { SQLIdentifier($0) }).from("business_items")
            .where("business_id", .equal, business).where("id", .in, SQLBind.group(Array(ids))).all()
        return Dictionary(uniqueKeysWithValues: try rows.map(Self.item).map { ($0.id, $0) })
    }

    /// Saves an item's fields; false when another item of the business has its name.
    func update(_ item: BusinessItem, business: UUID, on db: any SQLDatabase) async throws -> Bool {
        let taken = try await db.select().column("id").from("business_items").where("business_id", .equal, business)
            .where("name_key", .equal, item.name.lowercased()).where("id", .notEqual, item.id).first()
        guard taken == nil else { return false }
        try await db.update("business_items").set("name", to: item.name).set("name_key", to: item.name.lowercased())
            .set("price_amount", to: item.price.amount).set("price_currency", to: item.price.currency)
            .set("category", to: item.category).set("updated_at", to: item.updatedAt)
            .where("id", .equal, item.id).run()
        return true
    }

    /// Removes an item; false when there was none.
    func deleteItem(_ id: UUID, business: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "business_items").where("id", .equal, id).where("business_id", .equal, business)
            .returning("id").first() != nil
    }

    private static func item(_ row: any SQLRow) throws -> BusinessItem {
        BusinessItem(
            id: try row.decode(column: "id", as: UUID.self),
            name: try row.decode(column: "name", as: String.self),
            price: Money(
                amount: try row.decode(column: "price_amount", as: Int64.self),
                currency: try row.decode(column: "price_currency", as: String.self)
            ),
            category: try row.decode(column: "category", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self)
        )
    }
}
