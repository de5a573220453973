import Foundation
import Hummingbird
import PlazaCore

/// `/v1/businesses/{id}/loyalty*`, `/v1/loyalty-programs*` and `/v1/me/loyalty-*`: the loyalty API of `openapi.yaml`.
struct LoyaltyAPI: Sendable {
    let loyalty: LoyaltyService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, authenticated: RouterGroup<AuthenticatedContext>) {
        v1.get("businesses/:id/loyalty-programs", use: programs)
        v1.get("loyalty-programs/:id", use: program)
        authenticated.post("businesses/:id/loyalty-programs", use: createProgram)
        authenticated.patch("loyalty-programs/:id", use: changeProgram)
        authenticated.post("businesses/:id/loyalty/keys", use: rotateKey)
        authenticated.get("businesses/:id/loyalty/punch-token", use: punchToken)
        authenticated.post("loyalty-programs/:id/cards", use: takeCard)
        authenticated.get("me/loyalty-cards", use: cards)
        authenticated.get("me/loyalty-cards/:id", use: card)
        authenticated.post("me/loyalty-punches", use: punch)
    }

    @Sendable func programs(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(try await loyalty.programs(business: try Query.id(context.parameters, "id", "business"), viewer: context.identity))
    }

    @Sendable func program(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(try await loyalty.program(try Query.id(context.parameters, "id", "program"), viewer: context.identity))
    }

    @Sendable func createProgram(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LoyaltyProgramRequest.self, limit: maxBody)
        let business = try Query.id(context.parameters, "id", "business")
        return try .json(try await loyalty.createProgram(context.identity, business: business, body), status: .created)
    }

    @Sendable func changeProgram(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LoyaltyProgramChange.self, limit: maxBody)
        return try .json(try await loyalty.changeProgram(context.identity, try Query.id(context.parameters, "id", "program"), body))
    }

    @Sendable func rotateKey(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await loyalty.rotateKey(context.identity, business: try Query.id(context.parameters, "id", "business")), status: .created)
    }

    @Sendable func punchToken(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let program = query.get("programId").flatMap(UUID.init(uuidString:)) else {
            throw PlazaError.validation(field: "programId", "Name the program (its id).")
        }
        guard let location = query.get("locationId").flatMap(UUID.init(uuidString:)) else {
            throw PlazaError.validation(field: "locationId", "Name the location (its id).")
        }
        return try .json(
            try await loyalty.punchToken(
                context.identity, business: try Query.id(context.parameters, "id", "business"), program: program, location: location))
    }

    @Sendable func takeCard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await loyalty.takeCard(context.identity, program: try Query.id(context.parameters, "id", "program")), status: .created)
    }

    @Sendable func cards(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let view = try request.uri.queryParameters.get("view").map { raw in
            guard let view = LoyaltyService.CardView(rawValue: raw) else { throw PlazaError.validation(field: "view", "Use current or history.") }
            return view
        }
        return try .json(try await loyalty.cards(context.identity, view: view ?? .current, limit: paging.limit, cursor: paging.cursor))
    }

    @Sendable func card(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await loyalty.card(context.identity, try Query.id(context.parameters, "id", "card")))
    }

    @Sendable func punch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: PunchBatch.self, limit: maxBody)
        return try .json(try await loyalty.sync(context.identity, body))
    }
}
