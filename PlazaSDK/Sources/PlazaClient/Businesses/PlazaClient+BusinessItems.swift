import Foundation
import PlazaCore

extension PlazaClient {
    /// Owners and staff: the items the business sells at its counter, by category and name.
    public func businessItems(
        _ business: UUID,
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws
        -> Page<BusinessItem>
    {
        try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/items",
            query: Self.query(["limit": limit.map(String.init), "cursor": cursor]),
            auth: .required
        )
    }

    /// Owners: a new item with its price.
    public func createBusinessItem(_ business: UUID, _ request: BusinessItemRequest) async throws -> BusinessItem {
        try await send(
            "POST",
            "v1/businesses/\(business.uuidString.lowercased())/items",
            body: request,
            auth: .required
        )
    }

    /// Owners: changes the fields sent.
    public func changeBusinessItem(
        _ item: UUID,
        of business: UUID,
        _ change: BusinessItemChange
    ) async throws
        -> BusinessItem
    {
        try await send(
            "PATCH",
            "v1/businesses/\(business.uuidString.lowercased())/items/\(item.uuidString.lowercased())",
            body: change,
            auth: .required
        )
    }

    /// Owners: takes an item off the list (charges keep their lines).
    public func deleteBusinessItem(_ item: UUID, of business: UUID) async throws {
        try await sendVoid(
            "DELETE",
            "v1/businesses/\(business.uuidString.lowercased())/items/\(item.uuidString.lowercased())",
            auth: .required
        )
    }
}
