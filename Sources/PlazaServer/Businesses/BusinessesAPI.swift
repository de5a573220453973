import Foundation
import Hummingbird
import PlazaCore

/// `/v1/businesses*` (but presence and audience, which are Places') and `/v1/me/businesses`: the businesses API of
/// `openapi.yaml`.
struct BusinessesAPI: Sendable {
    let businesses: BusinessesService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, authenticated: RouterGroup<AuthenticatedContext>) {
        v1.get("businesses", use: search)
        v1.get("businesses/:id", use: business)
        authenticated.post("businesses", use: createBusiness)
        authenticated.get("me/businesses", use: myBusinesses)
        authenticated.patch("businesses/:id", use: updateBusiness)
        authenticated.delete("businesses/:id", use: deleteBusiness)
        authenticated.post("businesses/:id/locations", use: addLocation)
        authenticated.put("businesses/:id/locations/:locationId", use: updateLocation)
        authenticated.delete("businesses/:id/locations/:locationId", use: deleteLocation)
        authenticated.get("businesses/:id/members", use: members)
        authenticated.post("businesses/:id/members", use: setMember)
        authenticated.delete("businesses/:id/members/:username", use: removeMember)
        authenticated.get("businesses/:id/items", use: items)
        authenticated.post("businesses/:id/items", use: createItem)
        authenticated.patch("businesses/:id/items/:itemId", use: changeItem)
        authenticated.delete("businesses/:id/items/:itemId", use: deleteItem)
    }

    // MARK: Items

    /// Owners and staff: what the counter sells, by category and name.
    @Sendable func items(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await businesses.items(
                context.identity,
                business: try Query.id(context.parameters, "id", "business"),
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    /// Owners: a new item.
    @Sendable func createItem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: BusinessItemRequest.self, limit: maxBody)
        let business = try Query.id(context.parameters, "id", "business")
        return try .json(try await businesses.createItem(context.identity, business: business, body), status: .created)
    }

    /// Owners: changes the fields sent.
    @Sendable func changeItem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: BusinessItemChange.self, limit: maxBody)
        return try .json(
            try await businesses.changeItem(
                context.identity,
                business: try Query.id(context.parameters, "id", "business"),
                item: try Query.id(context.parameters, "itemId", "item"),
                body
            )
        )
    }

    /// Owners: takes an item off the list (charges keep their lines).
    @Sendable func deleteItem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await businesses.deleteItem(
            context.identity,
            business: try Query.id(context.parameters, "id", "business"),
            item: try Query.id(context.parameters, "itemId", "item")
        )
        return Response(status: .noContent)
    }

    /// Anyone: businesses by name and category, ordered by name.
    @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let query = request.uri.queryParameters
        return try .json(
            try await businesses.search(
                text: query.get("q").map { String($0.prefix(100)) },
                category: try Query.category(request.uri),
                hasLoyalty: try Query.bool(request.uri, "hasLoyalty"),
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }

    /// Anyone: one business with its locations.
    @Sendable func business(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(
            try await businesses.business(try Query.id(context.parameters, "id", "business"), viewer: context.identity)
        )
    }

    /// Merchants: a new business, owned by the caller.
    @Sendable func createBusiness(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CreateBusinessRequest.self, limit: maxBody)
        return try .json(try await businesses.createBusiness(context.identity, body), status: .created)
    }

    /// Signed in: the businesses the caller owns or works for.
    @Sendable func myBusinesses(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await businesses.myBusinesses(context.identity), nextCursor: nil))
    }

    /// Owners: changes the given fields.
    @Sendable func updateBusiness(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let body = try await request.decodeJSON(as: UpdateBusinessRequest.self, limit: maxBody)
        return try .json(try await businesses.updateBusiness(context.identity, id, body))
    }

    /// Owners: deletes the business, its locations and their foot-traffic data.
    @Sendable func deleteBusiness(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await businesses.deleteBusiness(context.identity, try Query.id(context.parameters, "id", "business"))
        return .noContent
    }

    /// Owners: a new location.
    @Sendable func addLocation(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let body = try await request.decodeJSON(as: LocationRequest.self, limit: maxBody)
        return try .json(try await businesses.addLocation(context.identity, business: id, body), status: .created)
    }

    /// Owners: replaces a location's fields.
    @Sendable func updateLocation(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let location = try Query.id(context.parameters, "locationId", "location")
        let body = try await request.decodeJSON(as: LocationRequest.self, limit: maxBody)
        return try .json(try await businesses.updateLocation(context.identity, business: id, location: location, body))
    }

    /// Owners: removes a location.
    @Sendable func deleteLocation(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        try await businesses.deleteLocation(
            context.identity,
            business: id,
            location: try Query.id(context.parameters, "locationId", "location")
        )
        return .noContent
    }

    /// Owners and staff: who works for the business.
    @Sendable func members(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            Page(
                items: try await businesses.members(
                    context.identity,
                    business: try Query.id(context.parameters, "id", "business")
                ),
                nextCursor: nil
            )
        )
    }

    /// Owners: links an account by username, or changes its role.
    @Sendable func setMember(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let body = try await request.decodeJSON(as: AddMemberRequest.self, limit: maxBody)
        return try .json(try await businesses.setMember(context.identity, business: id, body))
    }

    /// Owners: unlinks a member (never the last owner).
    @Sendable func removeMember(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        try await businesses.removeMember(
            context.identity,
            business: id,
            username: context.parameters.get("username") ?? ""
        )
        return .noContent
    }
}
