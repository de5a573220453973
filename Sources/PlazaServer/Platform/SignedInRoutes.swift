import Hummingbird
import Synchronization

/// Where signed-in routes are registered. Ordinary ones go on `plain` (a key, when sent, is kept with the response
/// once the handler is done); routes that move money on `money(_:)`, declaring how they keep their key, so that the
/// idempotency middleware is told rather than guessing from the path.
struct SignedInRoutes: Sendable {
    let plain: RouterGroup<AuthenticatedContext>
    private let base: RouterGroup<AuthenticatedContext>
    private let prefix: String
    private let store: IdempotencyStore
    private let maxBody: Int
    private let declared: DeclaredMoneyRoutes

    /// `prefix`: the path `base` sits at (`/v1`), to name the routes in `declared`.
    init(
        _ base: RouterGroup<AuthenticatedContext>,
        prefix: String,
        store: IdempotencyStore,
        maxBody: Int,
        declared: DeclaredMoneyRoutes
    ) {
        (self.base, self.prefix, self.store, self.maxBody, self.declared) = (base, prefix, store, maxBody, declared)
        plain = base.group().add(middleware: SecondFactorHeaderMiddleware()).add(
            middleware: IdempotencyMiddleware(store: store, maxBody: maxBody, mode: .recordedAfter)
        )
    }

    /// Routes that move money, keeping their key in `mode`.
    func money(_ mode: IdempotencyMode) -> MoneyRoutes {
        MoneyRoutes(
            group: base.group().add(middleware: SecondFactorHeaderMiddleware())
                .add(middleware: IdempotencyMiddleware(store: store, maxBody: maxBody, mode: mode)),
            mode: mode,
            prefix: prefix,
            declared: declared
        )
    }
}

/// A group of money routes sharing one idempotency mode; only POSTs move money.
struct MoneyRoutes: Sendable {
    let group: RouterGroup<AuthenticatedContext>
    let mode: IdempotencyMode
    let prefix: String
    let declared: DeclaredMoneyRoutes

    @discardableResult
    func post(
        _ path: String,
        use handler: @escaping @Sendable (Request, AuthenticatedContext) async throws -> some ResponseGenerator
    ) -> Self {
        declared.add("POST \(prefix)/\(path)", mode)
        group.post(RouterPath(path), use: handler)
        return self
    }
}

/// Every money route and its mode, as registered (`POST /v1/charges/:id/approve` → `recordedWithWork`).
final class DeclaredMoneyRoutes: Sendable {
    private let routes = Mutex<[String: IdempotencyMode]>([:])

    func add(_ route: String, _ mode: IdempotencyMode) {
        routes.withLock { $0[route] = mode }
    }

    var all: [String: IdempotencyMode] { routes.withLock { $0 } }
}
