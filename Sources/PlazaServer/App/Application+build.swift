import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOHTTP1

/// Builds the whole Plaza application: `plaza serve`, `plaza demo` and the tests all come through here.
///
/// `afterMigrations` runs once the schema is current and before the first request (the demo seeds data there).
public func buildApplication(
    _ services: PlazaServices,
    afterMigrations: @escaping @Sendable (PlazaServices) async throws -> Void = { _ in },
    onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let configuration = services.configuration
    let network = configuration.network
    let router = try buildRouter(services)
    var background = services.backgroundServices
    if let port = network.metricsPort {
        // `/metrics` on a listener of its own, which the public port does not serve.
        let metrics = Router(context: AppRequestContext.self)
        OperationsAPI(services: services).addMetrics(to: metrics)
        // On loopback only: a scraper on this host (or a sidecar) reads it; nothing on the network can.
        background.append(
            Application(
                router: metrics,
                configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Plaza")
            )
        )
    }
    var app = Application(
        router: router,
        server: guardedServer(
            router,
            network,
            drain: services.drain,
            upgradeCheck: { [accounts = services.accounts] head in
                // A WebSocket upgrade with a bearer token: the token must hold (the cookie and first-message ways send none).
                guard let header = head.headers.first(name: "authorization"), header.lowercased().hasPrefix("bearer ")
                else { return true }
                return ((try? await accounts.identity(bearer: String(header.dropFirst(7)))) ?? nil) != nil
            }
        ),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "Plaza",
            availableConnectionsDelegate: MaximumAvailableConnections(network.maxConnections)
        ),
        services: background,
        onServerRunning: { channel in
            services.logger.notice(
                "Plaza is listening",
                metadata: ["address": "\(channel.localAddress?.description ?? "?")"]
            )
            // The processor calls back on loopback (the sandbox runs in this process; a real one gets PLAZA_PUBLIC_URL).
            services.wallet.gateway?.deliverWebhooks(
                to: "http://127.0.0.1:\(channel.localAddress?.port ?? configuration.port)/v1/webhooks/gateway"
            )
            // Each language's templates are parsed now rather than before the first request could be answered, on a
            // thread of their own: on the tasks' executor (as wide as the cores) the parse would hold up the accepts.
            Thread.detachNewThread { [templates = services.templates, logger = services.logger] in
                do { try templates.warm() } catch { logger.critical("a template does not parse: \(error)") }
            }
            await onListening(channel.localAddress?.port ?? configuration.port)
        },
        logger: services.logger
    )
    app.beforeServerStarts {
        try await services.migrate()
        try await afterMigrations(services)
    }
    return app
}

/// HTTP/1 with WebSocket upgrades, every connection held to `network`'s deadlines and caps (see `ConnectionGuard`).
/// Upgrade requests go through the same router, so `GET /v1/events` decides (see `EventsAPI`).
func guardedServer(
    _ router: Router<AppRequestContext>,
    _ network: NetworkConfiguration,
    drain: ServerDrain? = nil,
    upgradeCheck: ConnectionGuard.UpgradeCheck? = nil
)
    -> HTTPServerBuilder
{
    let webSocketResponder = router.buildResponder()
    let timeouts = ConnectionGuard.Timeouts(
        header: .milliseconds(Int64(network.headerTimeout * 1_000)),
        idle: .milliseconds(Int64(network.idleTimeout * 1_000)),
        body: .milliseconds(Int64(network.bodyTimeout * 1_000))
    )
    let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
        http1: .init(
            idleTimeout: timeouts.idle,
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: network.maxHeaderBytes,
                maxHeaderListSize: network.maxHeaderBytes,
                maxHeaderFieldCount: 200
            )
        ),
        ws: .init(autoPing: .enabled(timePeriod: .seconds(30)))
    )
    let counts = ConnectionCounts()
    return HTTPServerBuilder { responder in
        GuardedServerChannel(
            base: HTTP1WebSocketUpgradeChannel(
                responder: responder,
                webSocketResponder: webSocketResponder,
                configuration: configuration
            ),
            timeouts: timeouts,
            perClient: network.maxConnectionsPerClient,
            trustedProxies: network.trustedProxies,
            counts: counts,
            upgradeCheck: upgradeCheck,
            drain: drain
        )
    }
}

/// The router: middleware outermost first, then the API, the pages and the operational endpoints.
func buildRouter(_ services: PlazaServices) throws -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    let pages = WebPages(services: services)
    router.add(middleware: ClientAddressMiddleware(trustedProxies: services.configuration.network.trustedProxies))
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: TracingMiddleware(tracer: services.tracer))
    router.add(middleware: PlazaMetricsMiddleware(metrics: services.metrics))
    // The origin of the tile template (`https://tiles.example:8443/{z}/{x}/{y}.png` → `https://tiles.example:8443`).
    let tiles = services.configuration.places.mapTilesURL.flatMap { template -> String? in
        guard let scheme = template.range(of: "://") else { return nil }
        let rest = template[scheme.upperBound...]
        return String(template[..<scheme.upperBound] + rest.prefix { $0 != "/" })
    }
    // A form that starts a payment is answered with a redirect to the processor's page: CSP `form-action` covers it.
    let processor = services.wallet.gateway?.pageOrigins ?? []
    router.add(
        middleware: SecurityHeadersMiddleware(
            hsts: services.configuration.servesOverTLS,
            tileOrigin: tiles,
            formOrigins: processor
        )
    )
    router.add(
        middleware: CookieAuthMiddleware(
            accounts: services.accounts,
            secrets: services.secrets,
            secure: services.configuration.servesOverTLS,
            catalogue: services.catalogue,
            badges: pages.badges
        )
    )
    let contract = ContractRoutes(specText: APIReference.specText)
    router.add(
        middleware: ErrorMiddleware(
            declaredMethods: { contract.methods(for: $0) },
            words: { [catalogue = services.catalogue] request in
                PageLanguage.words
                    ?? catalogue.words(catalogue.choose(account: nil, acceptLanguage: request.headers[.acceptLanguage]))
            }
        ) { error, request, context in
            pages.errorPage(error, request: request, context: context)
        }
    )
    router.add(middleware: NulQueryMiddleware())

    OperationsAPI(services: services).addRoutes(to: router)

    let v1 = router.group("v1").add(middleware: BearerAuthMiddleware(accounts: services.accounts))
        .add(middleware: APILanguageMiddleware(catalogue: services.catalogue))
    let signedIn = SignedInRoutes(
        v1.group(context: AuthenticatedContext.self),
        prefix: "/v1",
        store: services.idempotency,
        maxBody: services.configuration.limits.maxRequestBody,
        declared: services.moneyRoutes
    )
    let authenticated = signedIn.plain
    AccountsAPI(accounts: services.accounts, maxBody: services.configuration.limits.maxRequestBody)
        .addRoutes(to: v1, authenticated: authenticated)
    BusinessesAPI(businesses: services.businesses, maxBody: services.configuration.limits.maxRequestBody)
        .addRoutes(to: v1, authenticated: authenticated)
    PlacesAPI(
        places: services.places,
        accounts: services.accounts,
        maxBody: services.configuration.limits.maxRequestBody
    )
    .addRoutes(to: v1, authenticated: authenticated)
    WalletAPI(wallet: services.wallet, maxBody: services.configuration.limits.maxRequestBody)
        .addRoutes(to: v1, signedIn: signedIn)
    ChargesAPI(wallet: services.wallet, maxBody: services.configuration.limits.maxRequestBody).addRoutes(to: signedIn)
    DisputesAPI(wallet: services.wallet, maxBody: services.configuration.limits.maxRequestBody).addRoutes(to: signedIn)
    InboxAPI(inbox: services.inbox, maxBody: services.configuration.limits.maxRequestBody).addRoutes(to: authenticated)
    SecondFactorsAPI(secondFactors: services.secondFactors, maxBody: services.configuration.limits.maxRequestBody)
        .addRoutes(to: authenticated)
    NotificationsAPI(notifications: services.notifications, maxBody: services.configuration.limits.maxRequestBody)
        .addRoutes(to: v1, authenticated: authenticated)
    LoyaltyAPI(loyalty: services.loyalty, maxBody: services.configuration.limits.maxRequestBody).addRoutes(
        to: v1,
        signedIn: signedIn
    )
    WalletPassAPI(
        loyalty: services.loyalty,
        maxBody: services.configuration.limits.maxRequestBody,
        logger: services.logger
    ).addRoutes(to: router)
    OffersAPI(offers: services.offers, maxBody: services.configuration.limits.maxRequestBody).addRoutes(
        signedIn: signedIn
    )
    ChatAPI(market: services.market, maxBody: services.configuration.limits.maxRequestBody).addRoutes(to: authenticated)
    ListingsAPI(market: services.market, maxBody: services.configuration.limits.maxRequestBody).addRoutes(
        to: authenticated
    )
    DealsAPI(market: services.market, maxBody: services.configuration.limits.maxRequestBody).addRoutes(to: signedIn)
    TrustAPI(market: services.market, maxBody: services.configuration.limits.maxRequestBody).addRoutes(
        to: authenticated
    )
    FollowsAPI(market: services.market, maxBody: services.configuration.limits.maxRequestBody).addRoutes(
        to: authenticated
    )
    MediaAPI(media: services.media, accounts: services.accounts).addRoutes(authenticated: authenticated, router: router)
    MarketAPI(market: services.market, maxBody: services.configuration.limits.maxRequestBody).addRoutes(
        to: v1,
        authenticated: authenticated
    )
    CardsAPI(cards: services.cards, maxBody: services.configuration.limits.maxRequestBody).addRoutes(
        to: v1,
        signedIn: signedIn
    )
    AdminAPI(admin: services.admin, maxBody: services.configuration.limits.maxRequestBody).addRoutes(to: authenticated)
    EventsAPI(hub: services.events.hub, accounts: services.accounts).addRoutes(to: v1)

    try StaticAssets().addRoutes(to: router)
    pages.addRoutes(to: router)
    if services.configuration.mode != .production {
        DevAPI(services: services).addRoutes(to: router)
    }
    return router
}
