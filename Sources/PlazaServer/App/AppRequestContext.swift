import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// The context of every request: who is calling (once a middleware found out) and from where.
public struct AppRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Where the `GET /v1/events` route hands its WebSocket handler to the server.
    public let webSocket = WebSocketHandlerReference<AppRequestContext>()
    /// Set by `BearerAuthMiddleware` (API) or `CookieAuthMiddleware` (pages).
    var identity: Identity?
    /// The CSRF token the page forms of this request must carry.
    var csrfToken: String?
    /// The client's address, the subject of per-address rate limits.
    public let clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "local"
    }

    public var maxUploadSize: Int { 1 << 20 }
}

/// The context of routes that need a signed-in user: `identity` is there, or the request never gets here.
struct AuthenticatedContext: ChildRequestContext, IdempotencyScoped {
    typealias ParentContext = AppRequestContext
    var coreContext: CoreRequestContextStorage
    let identity: Identity
    let clientAddress: String
    let csrfToken: String?
    var idempotencyClaim: IdempotencyClaim?

    init(context: AppRequestContext) throws {
        guard let identity = context.identity else { throw PlazaError.unauthorized }
        coreContext = context.coreContext
        self.identity = identity
        clientAddress = context.clientAddress
        csrfToken = context.csrfToken
    }

    var idempotencyScope: String { identity.user.id.uuidString }
}
