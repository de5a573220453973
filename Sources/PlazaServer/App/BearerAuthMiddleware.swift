import HTTPTypes
import Hummingbird

/// Reads `Authorization: Bearer <access token>`. No header: the request goes on anonymous (routes that need
/// a user refuse it). A bad or expired token also goes on anonymous, so public operations (the map, sign-up,
/// password reset) answer as for anyone; a route that needs a user then answers 401 `invalid_token`, the SDK's
/// cue to refresh (see `AppRequestContext.requireIdentity`).
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // No header, or HTTP Basic (app passwords, read by the one route that takes them): anonymous here.
        guard let header = request.headers[.authorization], !header.lowercased().hasPrefix("basic ") else {
            return try await next(request, context)
        }
        var context = context
        if header.lowercased().hasPrefix("bearer "),
            let identity = try await accounts.identity(bearer: String(header.dropFirst(7)))
        {
            context.identity = identity
        } else {
            context.rejectedBearer = true
        }
        return try await next(request, context)
    }
}
