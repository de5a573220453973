import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    /// A TOTP code, a recovery code or `passkey <assertion>`, answering `second_factor_required`.
    static let plazaSecondFactor = HTTPField.Name("Plaza-Second-Factor")!
}

/// The second factor the current request carries: the API's `Plaza-Second-Factor` header, or a page form's code field.
/// A task-local, because the decision is made deep in the services (after the amount is known), not in each handler.
enum SecondFactorAnswer {
    @TaskLocal static var current: String?
}

/// Makes `Plaza-Second-Factor` the request's `SecondFactorAnswer.current`.
struct SecondFactorHeaderMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let answer = request.headers[.plazaSecondFactor] else { return try await next(request, context) }
        // No code, recovery code or passkey proof is this long (the contract's `maxLength`).
        guard answer.utf8.count <= 4096 else { throw PlazaError.invalidSecondFactor }
        return try await SecondFactorAnswer.$current.withValue(answer) { try await next(request, context) }
    }
}
