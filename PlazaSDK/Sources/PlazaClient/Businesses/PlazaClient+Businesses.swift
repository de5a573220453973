import Foundation
import PlazaCore

extension PlazaClient {
    /// Merchants: creates a business owned by the caller.
    public func createBusiness(_ request: CreateBusinessRequest) async throws -> Business {
        try await send("POST", "v1/businesses", body: request, auth: .required)
    }

    /// One business with its locations (and the caller's role when signed in).
    public func business(_ id: UUID) async throws -> Business {
        try await send("GET", "v1/businesses/\(id.uuidString.lowercased())", auth: await isSignedIn ? .required : .none)
    }

    /// The businesses the caller owns or works for.
    public func myBusinesses() async throws -> [Business] {
        let page: Page<Business> = try await send("GET", "v1/me/businesses", auth: .required)
        return page.items
    }

    public func updateBusiness(_ id: UUID, _ request: UpdateBusinessRequest) async throws -> Business {
        try await send("PATCH", "v1/businesses/\(id.uuidString.lowercased())", body: request, auth: .required)
    }

    public func deleteBusiness(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/businesses/\(id.uuidString.lowercased())", auth: .required)
    }

    /// Businesses whose name contains `text`, in a category, by name; pass `nextCursor` back for more.
    public func searchBusinesses(
        _ text: String? = nil,
        category: BusinessCategory? = nil,
        hasLoyalty: Bool? = nil,
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws
        -> Page<BusinessSummary>
    {
        try await send(
            "GET",
            "v1/businesses",
            query: Self.query([
                "q": text, "category": category?.rawValue, "hasLoyalty": hasLoyalty.map { String($0) },
                "limit": limit.map(String.init),
                "cursor": cursor,
            ])
        )
    }

    /// Businesses with a location within `radius` metres (default 200, at most 5,000), nearest first.
    public func nearbyBusinesses(
        around point: Coordinate,
        radius: Double? = nil,
        category: BusinessCategory? = nil,
        hasLoyalty: Bool? = nil,
        subscribedOnly: Bool = false,
        limit: Int? = nil,
        cursor: String? = nil
    ) async throws -> Page<BusinessSummary> {
        try await send(
            "GET",
            "v1/nearby/businesses",
            query: Self.query([
                "latitude": String(point.latitude), "longitude": String(point.longitude),
                "radius": radius.map { String($0) },
                "category": category?.rawValue, "hasLoyalty": hasLoyalty.map { String($0) },
                "subscribed": subscribedOnly ? "true" : nil,
                "limit": limit.map(String.init), "cursor": cursor,
            ]),
            auth: subscribedOnly ? .required : .none
        )
    }

    public func addLocation(to business: UUID, _ request: LocationRequest) async throws -> BusinessLocation {
        try await send(
            "POST",
            "v1/businesses/\(business.uuidString.lowercased())/locations",
            body: request,
            auth: .required
        )
    }

    public func updateLocation(
        _ location: UUID,
        of business: UUID,
        _ request: LocationRequest
    ) async throws -> BusinessLocation {
        try await send(
            "PUT",
            "v1/businesses/\(business.uuidString.lowercased())/locations/\(location.uuidString.lowercased())",
            body: request,
            auth: .required
        )
    }

    public func deleteLocation(_ location: UUID, of business: UUID) async throws {
        try await sendVoid(
            "DELETE",
            "v1/businesses/\(business.uuidString.lowercased())/locations/\(location.uuidString.lowercased())",
            auth: .required
        )
    }

    public func members(of business: UUID) async throws -> [BusinessMember] {
        let page: Page<BusinessMember> = try await send(
            "GET",
            "v1/businesses/\(business.uuidString.lowercased())/members",
            auth: .required
        )
        return page.items
    }

    /// Owners: links an account by username as owner or staff (or changes its role).
    @discardableResult
    public func setMember(_ username: String, role: BusinessRole, of business: UUID) async throws -> BusinessMember {
        try await send(
            "POST",
            "v1/businesses/\(business.uuidString.lowercased())/members",
            body: AddMemberRequest(username: username, role: role),
            auth: .required
        )
    }

    public func removeMember(_ username: String, from business: UUID) async throws {
        try await sendVoid(
            "DELETE",
            "v1/businesses/\(business.uuidString.lowercased())/members/\(username)",
            auth: .required
        )
    }
}
