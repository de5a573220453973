import Foundation
import Logging
import Mustache
import ServiceLifecycle

/// Everything a running Plaza holds: the database, the domain services, templates and metrics.
/// The server, the CLI (`admin create`, `demo`) and the tests all start from here.
public final class PlazaServices: Sendable {
    public let configuration: PlazaConfiguration
    public let database: PlazaDatabase
    public let metrics = PlazaMetrics()
    /// Spans for requests, SQL, outbound calls and background work, when `PLAZA_OTEL_ENDPOINT` is set.
    let tracer: PlazaTracer?
    public let logger: Logger
    package let accounts: AccountService
    let outbox: OutboxService
    let limiter: RateLimiter
    let idempotency: IdempotencyStore
    let templates: LocalizedTemplates
    /// The words of every offered language (see `Catalogue`).
    let catalogue: Catalogue
    let secrets: Secrets
    /// What changed, for every process and every open `GET /v1/events`: each domain publishes and subscribes here.
    let events: EventBus
    package let businesses: BusinessesService
    package let places: PlacesService
    package let wallet: WalletService
    let inbox: InboxService
    /// Authenticator apps and recovery codes; asked by the wallet before money leaves.
    let secondFactors: SecondFactorService
    package let notifications: NotificationService
    package let admin: AdminService
    package let loyalty: LoyaltyService
    package let offers: OffersService
    package let market: MarketService
    package let cards: CardsService
    package let media: MediaService
    package let notificationDelivery: NotificationDelivery
    /// The copies of the SQLite database kept in `PLAZA_BACKUP_DIR`; nil when backups are off.
    let backups: SQLiteBackups?
    /// Set on SIGTERM while the server drains (`PLAZA_DRAIN_SECONDS`).
    let drain = ServerDrain()
    /// The money routes and how each keeps its `Idempotency-Key`, filled as the router is built.
    let moneyRoutes = DeclaredMoneyRoutes()

    /// Opens the database and prepares every service; nothing is migrated or served yet.
    public static func open(_ configuration: PlazaConfiguration, logger: Logger) async throws -> PlazaServices {
        var configuration = configuration
        configuration.secretKey =
            try configuration.secretKey ?? SecretKeyFile.loadOrCreate(directory: configuration.dataDirectory)
        // The demo signs wallet passes with a certificate of its own (Wallet will not add them; the bytes are right).
        if configuration.mode == .demo, configuration.passes.apple == nil {
            configuration.passes.apple = try WalletPassConfiguration.demoApple(secretKey: configuration.secretKey ?? "")
        }
        if configuration.mode == .demo, configuration.passes.google == nil {
            configuration.passes.google = try WalletPassConfiguration.demoGoogle()
        }
        configuration.passes.origin = configuration.baseURL
        let database: PlazaDatabase
        switch configuration.storage {
        case .sqlite(let path):
            database = try await .sqlite(path: path, timeout: configuration.databaseTimeout, logger: logger)
        case .postgres(let url):
            database = try .postgres(url: url, timeout: configuration.databaseTimeout, logger: logger)
        }
        do {
            return try await PlazaServices(configuration: configuration, database: database, logger: logger)
        } catch {
            try? await database.close()
            throw error
        }
    }

    init(configuration: PlazaConfiguration, database: PlazaDatabase, logger: Logger) async throws {
        self.configuration = configuration
        self.database = database
        self.logger = logger
        tracer = configuration.otelEndpoint.map { [metrics] endpoint in
            PlazaTracer(
                exporter: OTLPExporter(
                    endpoint: endpoint,
                    serviceName: configuration.otelServiceName,
                    metricsInterval: configuration.otelMetricsInterval,
                    metricsText: { metrics.render() },
                    logger: logger
                )
            )
        }
        if case .sqlite(let path) = configuration.storage, let folder = configuration.backups.directory {
            backups = SQLiteBackups(
                source: path,
                configuration: configuration.backups,
                directory: folder,
                logger: logger
            )
        } else {
            backups = nil
        }
        let (metrics, engine) = (metrics, database.engine.rawValue)
        database.observeSessionWaits { metrics.databaseWait($0, engine: engine) }
        metrics.prepareDatabase(engine: engine)
        database.observeStatements { metrics.databaseOperation($0.operation, duration: $0.duration) }
        metrics.domain.prepareMoney(currencies: configuration.wallet.currencies)
        let secretKey = configuration.secretKey ?? ""
        secrets = Secrets(secretKey: secretKey)
        limiter = RateLimiter(database: database, window: configuration.limits.rateWindow)
        idempotency = IdempotencyStore(database: database, secrets: secrets)
        let transport: any MailTransport =
            if let smtp = configuration.smtpURL {
                SMTPTransport(url: smtp, from: "no-reply@\(configuration.publicURL?.host ?? "plaza.localhost")")
            } else {
                LogMailTransport(logger: logger)
            }
        let outbox = OutboxService(database: database, transport: transport, logger: logger)
        let events = EventBus(
            database: database,
            feed: database.makeFeed(storage: configuration.storage, logger: logger)
        )
        self.events = events
        let businesses = BusinessesService(
            database: database,
            events: events,
            currencies: configuration.wallet.currencies
        )
        self.businesses = businesses
        let places = PlacesService(
            database: database,
            configuration: configuration.places,
            businesses: businesses,
            events: events,
            limiter: limiter,
            secretKey: secretKey,
            logger: logger,
            subscriptions: OffersSubscriptions(database: database)
        )
        self.places = places
        var passUpdates: PassUpdateSender?
        if let apple = configuration.passes.apple, !apple.selfSigned || configuration.passes.apnsTrustRoots != nil {
            passUpdates = try PassUpdateSender(
                apple: apple,
                host: configuration.passes.apnsHost,
                trustRoots: configuration.passes.apnsTrustRoots,
                logger: logger
            )
        }
        let loyalty = LoyaltyService(
            database: database,
            events: events,
            businesses: businesses,
            secretKey: secretKey,
            idempotency: idempotency,
            passes: configuration.passes,
            passUpdates: passUpdates
        )
        self.loyalty = loyalty
        let secondFactors = SecondFactorService(
            database: database,
            events: events,
            limiter: limiter,
            secrets: secrets,
            configuration: configuration.secondFactors,
            relyingParty: WebAuthn.RelyingParty(publicURL: configuration.publicURL, port: configuration.port)
        )
        self.secondFactors = secondFactors
        wallet = WalletService(
            database: database,
            configuration: configuration.wallet,
            businesses: businesses,
            places: places,
            events: events,
            idempotency: idempotency,
            gateway: configuration.paymentGateway.map { choice -> any PaymentGateway in
                switch choice {
                case .sandbox: SandboxGateway(secretKey: secretKey, logger: logger)
                case .stripe(let settings): StripeGateway(settings, logger: logger)
                }
            },
            limiter: limiter,
            secrets: secrets,
            logger: logger,
            baseURL: configuration.baseURL.hasSuffix("/")
                ? String(configuration.baseURL.dropLast()) : configuration.baseURL,
            transfers: TransferBatcher(lanes: database.engine == .sqlite ? 1 : 4),
            // PostgreSQL's feed has a channel the batch's one prepared statement notifies; SQLite's writer pipelines.
            transferWriter: events.feed.notificationChannel.map { PostgresTransferWriter(channel: $0) }
                ?? SQLiteTransferWriter(idempotency: idempotency, events: events),
            coupons: OffersCoupons(),
            loyalty: LoyaltyPaymentPunches(service: loyalty),
            secondFactors: secondFactors
        )
        inbox = InboxService(database: database)
        offers = OffersService(
            database: database,
            events: events,
            businesses: businesses,
            places: places,
            blockedWords: configuration.offerBlockedWords,
            calendar: configuration.places.calendar,
            currency: configuration.wallet.currencies[0]
        )
        offers.listen()
        let webPush = WebPush(
            vapid: configuration.push.vapidPrivateKey ?? PushConfiguration.derivedKey(secretKey: secretKey),
            subject: configuration.push.vapidSubject ?? configuration.publicURL.map { "\($0.absoluteString)" }
                ?? "mailto:admin@plaza.localhost"
        )
        // One guard for the addresses users give: what registering accepts is what sending calls.
        let pushAddresses = OutboundGuard(pushServicesAnd: configuration.push.hosts)
        let catalogue = try Catalogue.load(
            defaultTag: configuration.defaultLanguage,
            pseudo: configuration.mode != .production
        )
        self.catalogue = catalogue
        let notifications = NotificationService(
            database: database,
            webPush: webPush,
            addresses: pushAddresses,
            baseURL: configuration.baseURL.hasSuffix("/")
                ? String(configuration.baseURL.dropLast()) : configuration.baseURL,
            catalogue: catalogue
        )
        self.notifications = notifications
        let delivery = NotificationDelivery(
            notifications: notifications,
            senders: PushSenders(
                webPush: WebPushSender(webPush: webPush, call: OutboundCall(addresses: pushAddresses)),
                apns: configuration.push.apns.map {
                    APNsSender(settings: $0, trustRoots: configuration.push.apnsTrustRoots)
                },
                fcm: configuration.push.fcm.map { FCMSender(settings: $0) }
            ),
            logger: logger
        )
        notificationDelivery = delivery
        delivery.outcomes.set { metrics.domain.push(provider: $0.provider, dropReason: $0.dropReason) }
        events.record(PresencePush().recorder)
        events.record(notifications.recorder { delivery.nudge() })
        self.outbox = outbox
        var accounts = AccountService(
            database: database,
            secrets: secrets,
            tokens: await AccessTokens(secretKey: secretKey, lifetime: configuration.limits.accessTokenLifetime),
            passwords: try await PasswordHasher(cost: configuration.bcryptCost),
            limiter: limiter,
            idempotency: idempotency,
            limits: configuration.limits,
            baseURL: configuration.baseURL,
            mailQueued: { outbox.nudge() },
            languages: catalogue.languageList
        )
        accounts.words = { catalogue.words($0) }
        let wallet = wallet
        // Nothing may be stranded: no account or business goes while it holds money or open charges, no business is
        // left without an owner.
        accounts.accountErasureCheck = { user, db in
            try await wallet.requireNothingHeld(by: user.id, business: false, on: db)
            try await MarketService.requireNoHeldDeal(user.id, on: db)
            try await CardsService.requireNoOpenOrder(user.id, on: db)
            try await businesses.requireNotLastOwner(user.id, on: db)
        }
        businesses.deletionChecks.add { business, db in
            try await wallet.requireNothingHeld(by: business, business: true, on: db)
        }
        accounts.accountErased = { user in
            try await places.eraseUser(user)
            try await wallet.eraseUser(user.id)
            try await notifications.eraseUser(user.id)
        }
        accounts.accountChanged = { user in try await places.userChanged(user) }
        accounts.events = events
        self.accounts = accounts
        media = MediaService(database: database, pictures: configuration.pictures)
        market = MarketService(
            database: database,
            accounts: accounts,
            media: media,
            events: events,
            cipher: MessageCipher(secretKey: secretKey),
            currency: configuration.wallet.currencies[0],
            trustedHosts: [configuration.publicURL?.host].compactMap { $0 },
            secrets: secrets,
            idempotency: idempotency,
            payments: WalletMarketPayments(wallet: wallet),
            positions: PlacesMeetupPositions(database: database)
        )
        cards = CardsService(
            database: database,
            events: events,
            fonts: try CardFonts.load(),
            currency: configuration.wallet.currencies[0],
            settings: configuration.cards,
            idempotency: idempotency,
            payments: WalletCardShopPayments(wallet: wallet),
            baseURL: configuration.baseURL.hasSuffix("/")
                ? String(configuration.baseURL.dropLast()) : configuration.baseURL,
            mailQueued: { outbox.nudge() },
            words: { catalogue.words($0) },
            pictures: configuration.pictures,
            media: media
        )
        let admin = AdminService(
            database: database,
            events: events,
            accounts: accounts,
            wallet: wallet,
            offers: offers,
            backups: backups
        )
        self.admin = admin
        // What each domain writes in a publishing transaction: review requests filed, decisions applied to their subject.
        events.record(admin.reviewRecorder())
        events.record(accounts.reviewRecorder())
        events.record(businesses.reviewRecorder())
        events.record(businesses.loyaltyRecorder())
        events.record(offers.reviewRecorder())
        events.record(offers.deliveryRecorder())
        events.record(market.reviewRecorder())
        events.record(market.verifiedAddressRecorder())
        events.record(cards.reviewRecorder())
        events.record(cards.paymentRecorder())
        events.record(inbox.noticeRecorder())
        events.record(wallet.disputeRecorder())
        templates = try Templates.load(catalogue: catalogue)
    }

    /// Brings the schema up to date.
    public func migrate() async throws {
        let applied = try await Migrator(database: database).migrate()
        if !applied.isEmpty { logger.info("migrated", metadata: ["applied": "\(applied.joined(separator: ", "))"]) }
    }

    /// Whether every migration of this Plaza is applied (a database that cannot be read is not).
    func schemaIsCurrent() async -> Bool {
        do { return try await Migrator(database: database).unapplied() == nil } catch { return false }
    }

    /// Runs `body` with the database's background work (PostgreSQL's pool) running, for commands without a server.
    public func withDatabase<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let service = database.service else { return try await body() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await service.run()
                return nil
            }
            defer { group.cancelAll() }
            // PostgresClient.run() marks the pool running as it starts; a lease before that is served but warns
            // ("run() hasn't been called yet", as `plaza ledger verify` did). No API says when it started: give its
            // task a moment to.
            try await Task.sleep(for: .milliseconds(20))
            return try await body()
        }
    }
}

/// The secret key kept in the data folder when `PLAZA_SECRET_KEY` is not set.
enum SecretKeyFile {
    static func loadOrCreate(directory: String) throws -> String {
        let path = URL(fileURLWithPath: directory).appendingPathComponent("secret.key").path
        if let existing = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) }) {
            let key = existing.trimmingCharacters(in: .whitespacesAndNewlines)
            if key.utf8.count >= 32 { return key }
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let key = Secrets.randomToken(bytes: 48)
        guard
            FileManager.default.createFile(
                atPath: path,
                contents: Data(key.utf8),
                attributes: [.posixPermissions: 0o600]
            )
        else {
            throw ConfigurationError(key: "PLAZA_SECRET_KEY", message: "is not set and \(path) could not be written")
        }
        return key
    }
}
