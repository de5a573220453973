import Foundation
import PlazaCore
import SQLKit

/// The items a business sells at its counter: owners keep them, owners and staff read them to build charges.
extension BusinessesService {
    /// Owners and staff: the business's items by category, then name.
    package func items(
        _ identity: Identity,
        business: UUID,
        limit: Int,
        cursor: String?
    ) async throws -> Page<BusinessItem> {
        _ = try await requireMember(identity, of: business)
        let offset = try cursor.map { try PlaceCursor.decodeOffset($0) } ?? 0
        let rows = try await store.items(business: business, limit: limit + 1, offset: offset, on: database.sql)
        return Page(
            items: Array(rows.prefix(limit)),
            nextCursor: rows.count > limit ? PlaceCursor.encode(offset: offset + limit) : nil
        )
    }

    /// Owners: a new item; 409 `conflict` naming `name` when the business sells one of that name already.
    package func createItem(
        _ identity: Identity,
        business: UUID,
        _ request: BusinessItemRequest,
        now: Date = Date()
    ) async throws -> BusinessItem {
        _ = try await requireMember(identity, of: business, owner: true)
        let item = try checked(
            BusinessItem(
                id: UUID(),
                name: request.name,
                price: request.price,
                category: request.category,
                createdAt: now,
                updatedAt: now
            )
        )
        guard try await store.insert(item, business: business, on: database.sql) else {
            throw PlazaError.conflict(field: "name", phrase("An item of this name is on the list already."))
        }
        return item
    }

    /// Owners: changes the fields sent; charges already made keep their lines as they were.
    func changeItem(
        _ identity: Identity,
        business: UUID,
        item id: UUID,
        _ change: BusinessItemChange,
        now: Date = Date()
    ) async throws -> BusinessItem {
        _ = try await requireMember(identity, of: business, owner: true)
        let store = store
        return try await database.transaction { db in
            guard var item = try await store.item(id, business: business, forUpdate: true, on: db) else {
                throw PlazaError.notFound("item")
            }
            if let name = change.name { item.name = name }
            if let price = change.price { item.price = price }
            if let category = change.category { item.category = category }
            item.updatedAt = now
            item = try checked(item)
            guard try await store.update(item, business: business, on: db) else {
                throw PlazaError.conflict(field: "name", phrase("An item of this name is on the list already."))
            }
            return item
        }
    }

    /// Owners: takes an item off the list.
    func deleteItem(_ identity: Identity, business: UUID, item id: UUID) async throws {
        _ = try await requireMember(identity, of: business, owner: true)
        guard try await store.deleteItem(id, business: business, on: database.sql) else {
            throw PlazaError.notFound("item")
        }
    }

    /// The item trimmed, with its problems refused by field (the currency must be one this Plaza takes).
    private func checked(_ item: BusinessItem) throws -> BusinessItem {
        var item = item
        item.name = item.name.trimmingCharacters(in: .whitespacesAndNewlines)
        item.category = item.category.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if item.category?.isEmpty == true { item.category = nil }
        var problems = BusinessRules.itemProblems(name: item.name, price: item.price, category: item.category)
        if let problem = WalletRules.amountError(item.price.amount, field: "price.amount"), item.price.amount != 0 {
            problems.append(problem)
        }
        if let problem = WalletRules.currencyProblem(item.price.currency, accepted: currencies) {
            problems.append(FieldError(field: "price.currency", message: problem))
        }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        return item
    }
}
