import Foundation
import Hummingbird
import PlazaCore

/// The campus marketplace's foundation in `openapi.yaml`: `/v1/market/campuses` (anyone), `/v1/me/campus*` (proving a
/// campus address), `/v1/market/agreement*`, the gated `/v1/market/*` reads, and the admins' `/v1/admin/campuses*` and
/// `/v1/admin/market/categories/*`.
struct MarketAPI: Sendable {
    let market: MarketService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, authenticated: RouterGroup<AuthenticatedContext>) {
        v1.get("market/campuses", use: campuses)
        authenticated.post("me/campus-email", use: startCampusEmail)
        authenticated.post("me/campus-email/verify", use: verifyCampusEmail)
        authenticated.get("me/campus", use: membership)
        authenticated.get("market/agreement", use: agreement)
        authenticated.post("market/agreement/sign", use: sign)
        authenticated.post("market/agreement/unsign", use: unsign)
        authenticated.get("market/categories", use: categories)
        authenticated.get("market/safe-spots", use: safeSpots)
        let admin = authenticated.group("admin").add(middleware: AdminOnly())
        admin.get("campuses", use: adminCampuses)
        admin.post("campuses", use: createCampus)
        admin.get("campuses/:id/safe-spots", use: adminSafeSpots)
        admin.post("campuses/:id/safe-spots", use: addSafeSpot)
        admin.delete("campuses/:id/safe-spots/:spot", use: removeSafeSpot)
        admin.put("market/categories/:slug", use: saveCategory)
    }

    @Sendable func campuses(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(Page(items: try await market.campuses(), nextCursor: nil))
    }

    @Sendable func startCampusEmail(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CampusEmailRequest.self, limit: maxBody)
        try await market.startCampusEmail(context.identity, email: body.email, client: context.clientAddress)
        return try .json(Acknowledgement(status: "accepted"), status: .accepted)
    }

    @Sendable func verifyCampusEmail(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CampusEmailVerification.self, limit: maxBody)
        return try .json(try await market.verifyCampusEmail(context.identity, body, client: context.clientAddress))
    }

    @Sendable func membership(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let membership = try await market.membership(context.identity) else {
            throw PlazaError.notFound("campus membership")
        }
        return try .json(membership)
    }

    @Sendable func agreement(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.agreement(context.identity))
    }

    @Sendable func sign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: AgreementSignature.self, limit: maxBody)
        return try .json(try await market.sign(context.identity, version: body.version))
    }

    @Sendable func unsign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.unsign(context.identity))
    }

    @Sendable func categories(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await market.requireStudent(context.identity)
        return try .json(Page(items: try await market.categories(), nextCursor: nil))
    }

    @Sendable func safeSpots(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let membership = try await market.requireStudent(context.identity)
        return try .json(Page(items: try await market.safeSpots(campus: membership.campus.id), nextCursor: nil))
    }

    // MARK: Admins

    @Sendable func adminCampuses(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await market.allCampuses(), nextCursor: nil))
    }

    @Sendable func createCampus(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CampusRequest.self, limit: maxBody)
        return try .json(try await market.createCampus(body), status: .created)
    }

    @Sendable func adminSafeSpots(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let campus = try Query.id(context.parameters, "id", "campus")
        return try .json(Page(items: try await market.safeSpots(campus: campus), nextCursor: nil))
    }

    @Sendable func addSafeSpot(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: SafeSpotRequest.self, limit: maxBody)
        return try .json(
            try await market.addSafeSpot(campus: try Query.id(context.parameters, "id", "campus"), body),
            status: .created
        )
    }

    @Sendable func removeSafeSpot(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let campus = try Query.id(context.parameters, "id", "campus")
        try await market.removeSafeSpot(campus: campus, try Query.id(context.parameters, "spot", "safe spot"))
        return Response(status: .noContent)
    }

    @Sendable func saveCategory(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CategoryName.self, limit: maxBody)
        let slug = context.parameters.get("slug") ?? ""
        let (category, created) = try await market.saveCategory(MarketCategory(slug: slug, name: body.name))
        return try .json(category, status: created ? .created : .ok)
    }
}
