import Foundation
import Logging
import PlazaServer
import PostgresNIO

/// The database engines the storage and API suites run on: SQLite always, PostgreSQL when
/// `PLAZA_TEST_DATABASE_URL` names a server (CI starts one).
public enum TestEngine: String, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    /// `PLAZA_TEST_ENGINES=postgres` narrows them (CI's PostgreSQL run, after the SQLite one ran them all).
    public static var enabled: [TestEngine] {
        let all: [TestEngine] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
        guard let only = ProcessInfo.processInfo.environment["PLAZA_TEST_ENGINES"], !only.isEmpty else { return all }
        let named = Set(only.split(separator: ",").compactMap { TestEngine(rawValue: String($0)) })
        return all.filter(named.contains)
    }

    static var postgresURL: URL? {
        ProcessInfo.processInfo.environment["PLAZA_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }

    public var description: String { rawValue }

    /// A database of this test's own: a new SQLite file, or a new PostgreSQL schema.
    func freshStorage() async throws -> (PlazaConfiguration.Storage, cleanup: @Sendable () async -> Void) {
        let id = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-test-\(id)")
            return (
                .sqlite(path: directory.appendingPathComponent("plaza.sqlite").path),
                { try? FileManager.default.removeItem(at: directory) }
            )
        case .postgres:
            guard let base = Self.postgresURL else { fatalError("PLAZA_TEST_DATABASE_URL is not set") }
            let schema = "test_\(id)"
            try await Self.execute("CREATE SCHEMA \(schema)", url: base)
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
            components.queryItems =
                (components.queryItems ?? []) + [
                    URLQueryItem(name: "search_path", value: schema), URLQueryItem(name: "pool_size", value: "4"),
                ]
            return (.postgres(components.url!), { try? await Self.execute("DROP SCHEMA \(schema) CASCADE", url: base) })
        }
    }

    /// One statement on its own short-lived pool.
    static func execute(_ sql: String, url: URL) async throws {
        var configuration = try PlazaDatabase.postgresConfiguration(url: url)
        configuration.options.maximumConnections = 1
        let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "plaza-test-admin"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            // As in `PlazaServices.withDatabase`: a lease before run() has started warns.
            try await Task.sleep(for: .milliseconds(20))
            try await client.query(PostgresQuery(unsafeSQL: sql))
            group.cancelAll()
        }
    }
}
