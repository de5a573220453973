import Foundation
import Hummingbird
import PlazaCore

/// Ratings, reports and appeals of `openapi.yaml`: `/v1/market/listings/{id}/rating`, `/v1/market/users/{username}/ratings`,
/// `/v1/market/reports`, `/v1/market/me/decisions*`.
struct TrustAPI: Sendable {
    let market: MarketService
    let maxBody: Int

    func addRoutes(to authenticated: RouterGroup<AuthenticatedContext>) {
        authenticated.post("market/listings/:id/rating", use: rate)
        authenticated.get("market/listings/:id/rating", use: rating)
        authenticated.get("market/users/:username/ratings", use: ratings)
    }

    @Sendable func rate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: RatingRequest.self, limit: maxBody)
        return try .json(try await market.rate(context.identity, listing: try Query.id(context.parameters, "id", "listing"), body), status: .created)
    }

    @Sendable func rating(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.dealRatings(context.identity, listing: try Query.id(context.parameters, "id", "listing")))
    }

    @Sendable func ratings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await market.ratings(context.identity, username: context.parameters.get("username") ?? "", limit: paging.limit, cursor: paging.cursor)
        )
    }
}
