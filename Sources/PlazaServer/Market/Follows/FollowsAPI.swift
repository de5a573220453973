import Foundation
import Hummingbird
import PlazaCore

/// `/v1/market/follows*`, `/v1/market/wish-list*` and `/v1/market/saved-searches*` of `openapi.yaml`.
struct FollowsAPI: Sendable {
    let market: MarketService
    let maxBody: Int

    func addRoutes(to authenticated: RouterGroup<AuthenticatedContext>) {
        authenticated.get("market/follows", use: follows)
        authenticated.put("market/follows/:username", use: follow)
        authenticated.delete("market/follows/:username", use: unfollow)
        authenticated.get("market/wish-list", use: wishList)
        authenticated.put("market/wish-list/:listingId", use: save)
        authenticated.delete("market/wish-list/:listingId", use: unsave)
        authenticated.get("market/saved-searches", use: searches)
        authenticated.post("market/saved-searches", use: saveSearch)
        authenticated.delete("market/saved-searches/:id", use: deleteSearch)
    }

    @Sendable func follows(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await market.following(context.identity), nextCursor: nil))
    }

    @Sendable func follow(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.follow(context.identity, username: context.parameters.get("username") ?? ""))
    }

    @Sendable func unfollow(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await market.unfollow(context.identity, username: context.parameters.get("username") ?? "")
        return Response(status: .noContent)
    }

    @Sendable func wishList(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await market.wishList(context.identity), nextCursor: nil))
    }

    @Sendable func save(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await market.save(context.identity, listing: try Query.id(context.parameters, "listingId", "listing"))
        )
    }

    @Sendable func unsave(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await market.unsave(context.identity, listing: try Query.id(context.parameters, "listingId", "listing"))
        return Response(status: .noContent)
    }

    @Sendable func searches(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await market.savedSearches(context.identity), nextCursor: nil))
    }

    @Sendable func saveSearch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: SavedSearchRequest.self, limit: maxBody)
        return try .json(try await market.saveSearch(context.identity, body), status: .created)
    }

    @Sendable func deleteSearch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await market.deleteSearch(context.identity, try Query.id(context.parameters, "id", "saved search"))
        return Response(status: .noContent)
    }
}
