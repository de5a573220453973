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
        authenticated.post("market/reports", use: report)
        authenticated.get("market/me/decisions", use: decisions)
        authenticated.post("market/me/decisions/:id/appeal", use: appeal)
    }

    @Sendable func report(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ReportRequest.self, limit: maxBody)
        return try .json(try await market.report(context.identity, body), status: .created)
    }

    @Sendable func decisions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await market.decisions(context.identity), nextCursor: nil))
    }

    @Sendable func appeal(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: AppealRequest.self, limit: maxBody)
        return try .json(
            try await market.appeal(
                context.identity,
                decision: try Query.id(context.parameters, "id", "decision"),
                body
            ),
            status: .created
        )
    }

    @Sendable func rate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: RatingRequest.self, limit: maxBody)
        return try .json(
            try await market.rate(context.identity, listing: try Query.id(context.parameters, "id", "listing"), body),
            status: .created
        )
    }

    @Sendable func rating(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await market.dealRatings(context.identity, listing: try Query.id(context.parameters, "id", "listing"))
        )
    }

    @Sendable func ratings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await market.ratings(
                context.identity,
                username: context.parameters.get("username") ?? "",
                limit: paging.limit,
                cursor: paging.cursor
            )
        )
    }
}
