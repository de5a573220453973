import Foundation
import Logging
import PlazaServer
import SQLKit

/// Every bench's start: a folder of its own (with a fresh SQLite file there, unless PostgreSQL is configured), a secret
/// key, migrated services; the services closed and the folder removed afterwards, whatever happens.
enum BenchSetup {
    static let logger: Logger = {
        var logger = Logger(label: "plaza-bench")
        logger.logLevel = .warning
        return logger
    }()

    static func withServices<T: Sendable>(
        _ configuration: PlazaConfiguration,
        _ body: @escaping @Sendable (PlazaServices, _ directory: URL) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "plaza-bench-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if case .sqlite = configuration.storage {
            configuration.storage = .sqlite(path: directory.appendingPathComponent("bench.sqlite").path)
        }
        if configuration.secretKey == nil { configuration.secretKey = Secrets.randomToken() + Secrets.randomToken() }
        let services = try await PlazaServices.open(configuration, logger: logger)
        do {
            let result = try await services.withDatabase {
                try await services.migrate()
                return try await body(services, directory)
            }
            try await services.database.close()
            return result
        } catch {
            try? await services.database.close()
            throw error
        }
    }

    /// Benches add thousands of accounts (some funded): never to an operator's real database.
    static func requireEmpty(_ services: PlazaServices, bench: String) async throws {
        let existing =
            try await services.database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(
                "users"
            ).first()?
            .decode(column: "n", as: Int.self) ?? 0
        guard existing == 0 else {
            throw HTTPPool.BenchFailure(
                description: "plaza bench \(bench) needs an empty database; this one has \(existing) users"
            )
        }
    }
}
