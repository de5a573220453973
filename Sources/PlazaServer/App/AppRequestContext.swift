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
    /// The request carried a bearer token that is invalid or expired (it goes on anonymous).
    var rejectedBearer = false
    /// The CSRF token the page forms of this request must carry.
    var csrfToken: String?
    /// The visitor's CSRF nonce cookie, when they had one (a form posted without it is refused).
    var csrfNonce: String?
    /// How this visitor wants money and dates written (pages only; see `CookieAuthMiddleware`).
    var reader = Reader.standard
    /// The page's path and navigation badges, for the layout (pages only).
    var page = PageInfo()
    /// The client's address, the subject of per-address rate limits. Written out when asked for (most requests
    /// never are), unless `ClientAddressMiddleware` named the client behind a trusted proxy.
    public internal(set) var clientAddress: String {
        get { namedClient ?? peer?.ipAddress ?? "local" }
        set { namedClient = newValue }
    }
    private let peer: SocketAddress?
    private var namedClient: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress
    }

    public var maxUploadSize: Int { 1 << 20 }

    /// The signed-in caller, or 401: `invalid_token` (with `WWW-Authenticate`) when a bad token came, `unauthorized` when none.
    func requireIdentity() throws -> Identity {
        if let identity { return identity }
        guard rejectedBearer else { throw PlazaError.unauthorized }
        var error = PlazaError.invalidToken
        error.headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\""
        throw error
    }
}

/// The context of routes that need a signed-in user: `identity` is there, or the request never gets here.
struct AuthenticatedContext: ChildRequestContext, IdempotencyScoped {
    typealias ParentContext = AppRequestContext
    var coreContext: CoreRequestContextStorage
    let identity: Identity
    let clientAddress: String
    let csrfToken: String?
    let reader: Reader
    let page: PageInfo
    var idempotencyClaim: IdempotencyClaim?

    init(context: AppRequestContext) throws {
        let identity = try context.requireIdentity()
        coreContext = context.coreContext
        self.identity = identity
        clientAddress = context.clientAddress
        csrfToken = context.csrfToken
        reader = context.reader
        page = context.page
    }

    var idempotencyScope: String { identity.user.id.uuidString }
}
