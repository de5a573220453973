import HTTPTypes
import Hummingbird

/// Behind a trusted reverse proxy, the client is the address the proxy names (`X-Forwarded-For`),
/// not the proxy: per-address rate limits then count each client, not everyone at once. From any other peer those
/// headers are ignored, so a client cannot choose its address.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let trustedProxies: TrustedProxies
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard !trustedProxies.ranges.isEmpty else { return try await next(request, context) }
        var context = context
        context.clientAddress = trustedProxies.client(
            peer: context.clientAddress,
            forwardedFor: request.headers[Self.forwardedFor]
        )
        return try await next(request, context)
    }
}
