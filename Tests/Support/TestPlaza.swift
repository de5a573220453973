import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PlazaCore
import PlazaServer
import Synchronization

/// A real Plaza for one test: a fresh database, fast bcrypt, dev mode (the mailbox), and the full app.
public enum TestPlaza {
    /// A configuration for tests; `configure` tightens limits or changes modes.
    public static func configuration(
        storage: PlazaConfiguration.Storage,
        _ configure: (inout PlazaConfiguration) -> Void = { _ in }
    )
        -> PlazaConfiguration
    {
        _ = sharedDecoders
        var configuration = PlazaConfiguration()
        configuration.storage = storage
        configuration.secretKey = "test-secret-key-that-is-long-enough-0123456789"
        configuration.bcryptCost = 4
        configuration.mode = .dev
        configuration.paymentGateway = .sandbox
        configuration.port = 0
        // A live test's client connects when the app starts; on a loaded machine its first request can come later than
        // the 10-second header timeout, which would close that idle connection under it. Tests of the timeout set theirs.
        configuration.network.headerTimeout = 300
        // Journeys of other domains predate second factors (issue 40); SecondFactorTests and the client's tests turn
        // them on where they are what is tested.
        configuration.secondFactors.enforced = false
        // Many tests share two cores: a transaction may wait its turn longer than production's five seconds. Tests of
        // the timeout set theirs.
        configuration.databaseTimeout = .seconds(30)
        configure(&configuration)
        return configuration
    }

    /// The apps of many tests share this process's picture decoders (`DecodePool.shared`), sized for one server: a
    /// longer queue, so that a busy moment of the whole suite is no 503 a user of one server would meet.
    private static let sharedDecoders: Void = { DecodePool.sharedQueue.store(256, ordering: .releasing) }()

    static var logger: Logger {
        var logger = Logger(label: "plaza-test")
        logger.logLevel =
            ProcessInfo.processInfo.environment["PLAZA_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            ?? .critical
        return logger
    }

    /// Runs `body` against the whole application (`.router` in-process, or `.live` on a loopback port).
    public static func withApp<T: Sendable>(
        _ engine: TestEngine,
        _ testing: TestingSetup = .router,
        configure: (inout PlazaConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol, PlazaServices) async throws -> T
    ) async throws -> T {
        let (storage, cleanup) = try await engine.freshStorage()
        defer { Task { await cleanup() } }
        let services = try await PlazaServices.open(configuration(storage: storage, configure), logger: logger)
        let app = try buildApplication(services)
        do {
            let result = try await app.test(testing) { client in
                try await createAdmin(services)
                return try await body(client, services)
            }
            try await services.database.close()
            return result
        } catch {
            try? await services.database.close()
            throw error
        }
    }

    /// Runs `body` with migrated services but no server, for storage and service tests.
    public static func withServices<T: Sendable>(
        _ engine: TestEngine,
        configure: (inout PlazaConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (PlazaServices) async throws -> T
    ) async throws -> T {
        let (storage, cleanup) = try await engine.freshStorage()
        defer { Task { await cleanup() } }
        let services = try await PlazaServices.open(configuration(storage: storage, configure), logger: logger)
        do {
            let result = try await services.withDatabase {
                try await services.migrate()
                return try await body(services)
            }
            try await services.database.close()
            return result
        } catch {
            try? await services.database.close()
            throw error
        }
    }

    /// Runs `body` with two migrated services on one fresh database (no servers), as two processes' background work.
    public static func withSharedServices(
        _ engine: TestEngine,
        configure: (inout PlazaConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (PlazaServices, PlazaServices) async throws -> Void
    ) async throws {
        let (storage, cleanup) = try await engine.freshStorage()
        defer { Task { await cleanup() } }
        let first = try await PlazaServices.open(configuration(storage: storage, configure), logger: logger)
        let second = try await PlazaServices.open(configuration(storage: storage, configure), logger: logger)
        do {
            try await first.withDatabase {
                try await second.withDatabase {
                    try await first.migrate()
                    try await body(first, second)
                }
            }
        } catch {
            try? await first.database.close()
            try? await second.database.close()
            throw error
        }
        try await first.database.close()
        try await second.database.close()
    }

    /// The operator's first admin, as `plaza admin create` makes it (`AccountsDriver.admin`): it approves the tests' merchants.
    static func createAdmin(_ services: PlazaServices) async throws {
        try await services.createAccount(
            email: "root@example.com",
            username: AccountsDriver.admin,
            displayName: "Root Admin",
            password: AccountsDriver.password,
            role: .admin
        )
    }

    /// Runs `body` against two applications sharing one fresh database, as two `plaza serve` processes would.
    public static func withSharedDatabase(
        _ engine: TestEngine,
        _ testing: TestingSetup = .router,
        configure: (inout PlazaConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol, any TestClientProtocol) async throws -> Void
    ) async throws {
        let (storage, cleanup) = try await engine.freshStorage()
        defer { Task { await cleanup() } }
        let first = try await PlazaServices.open(configuration(storage: storage, configure), logger: logger)
        let second = try await PlazaServices.open(configuration(storage: storage, configure), logger: logger)
        let (firstApp, secondApp) = (try buildApplication(first), try buildApplication(second))
        try await firstApp.test(testing) { firstClient in
            try await secondApp.test(testing) { secondClient in
                try await createAdmin(first)
                try await body(firstClient, secondClient)
            }
        }
        try await first.database.close()
        try await second.database.close()
    }

    /// Runs `warm` on one application, then starts a second on the same database and runs `cold` on it: the second
    /// process begins after what `warm` made exists, as a `plaza serve` started later would.
    public static func withSharedDatabase<Made: Sendable>(
        _ engine: TestEngine,
        _ testing: TestingSetup = .router,
        warm: @escaping @Sendable (any TestClientProtocol) async throws -> Made,
        cold: @escaping @Sendable (any TestClientProtocol, Made) async throws -> Void
    ) async throws {
        let (storage, cleanup) = try await engine.freshStorage()
        defer { Task { await cleanup() } }
        let first = try await PlazaServices.open(configuration(storage: storage, { _ in }), logger: logger)
        let firstApp = try buildApplication(first)
        try await firstApp.test(testing) { firstClient in
            try await createAdmin(first)
            let made = try await warm(firstClient)
            let second = try await PlazaServices.open(configuration(storage: storage, { _ in }), logger: logger)
            let secondApp = try buildApplication(second)
            try await secondApp.test(testing) { secondClient in try await cold(secondClient, made) }
            try await second.database.close()
        }
        try await first.database.close()
    }
}
