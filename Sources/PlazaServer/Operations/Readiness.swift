import Foundation
import NIOCore
import NIOPosix
import SQLKit

/// What `/readyz` checks, each within `limit` so that the whole answer comes within two seconds however the database
/// fails: `database` (`ok`, `unreachable`, `timeout`, `read_only`), `disk` (`ok`, `full`: SQLite's folder has less
/// than `reserve` bytes free), `migrations` (`ok`, `pending`, or `unknown` when the database cannot say) and, on
/// PostgreSQL, `feed` (`ok`, `down`: the listening connection that carries live events between processes), and
/// `shutdown` (`ok`, `draining`: SIGTERM came and the server stops within `PLAZA_DRAIN_SECONDS`).
struct Readiness: Sendable {
    let services: PlazaServices
    static let limit: Duration = .milliseconds(1_500)
    /// Free bytes below which SQLite's disk counts as full: a commit needs room for its pages and the log's.
    static let reserve: UInt64 = 1 << 20

    struct Report: Encodable, Sendable {
        var status: String
        var database: String
        var checks: [String: String]
    }

    func report() async -> Report {
        async let database = bounded(checkDatabase)
        async let migrations = bounded(checkMigrations, else: "unknown")
        var checks = ["database": await database, "disk": checkDisk(), "migrations": await migrations]
        // No answer from a server that refuses connections is not slowness: say so (within the two seconds).
        if checks["database"] == "timeout", case .postgres(let url) = services.configuration.storage,
            await Self.refusesConnections(url)
        {
            checks["database"] = "unreachable"
        }
        if services.database.engine == .postgres {
            checks["feed"] = services.events.feed.receiver.isListening ? "ok" : "down"
        }
        checks["shutdown"] = services.drain.isDraining ? "draining" : "ok"
        let ready = checks.values.allSatisfy { $0 == "ok" }
        return Report(
            status: ready ? "ready" : "unavailable",
            database: services.database.engine.rawValue,
            checks: checks
        )
    }

    /// `check`'s answer, or `late` after `limit` (a hung database never answers).
    private func bounded(
        _ check: @escaping @Sendable () async -> String,
        else late: String = "timeout"
    ) async -> String {
        await FirstAnswer.within(Self.limit, check) ?? late
    }

    @Sendable private func checkDatabase() async -> String {
        let database = services.database
        do {
            if database.engine == .postgres {
                let row = try await database.sql.raw("SELECT pg_is_in_recovery() AS standby").first()
                if try row?.decode(column: "standby", as: Bool.self) == true { return "read_only" }
            } else {
                // A PRAGMA, not a SELECT: it waits for the writer (a SELECT would go to a reader), as writes do.
                _ = try await database.sql.raw("PRAGMA schema_version").first()
                if case .sqlite(let path) = services.configuration.storage, !Self.writable(path) { return "read_only" }
            }
            return "ok"
        } catch {
            return Self.name(of: error, storage: services.configuration.storage)
        }
    }

    @Sendable private func checkMigrations() async -> String {
        do {
            return try await Migrator(database: services.database).unapplied() == nil ? "ok" : "pending"
        } catch {
            return "unknown"
        }
    }

    /// SQLite only: the folder of its file has room for a commit. (PostgreSQL's disk is its server's to watch.)
    private func checkDisk() -> String {
        guard case .sqlite(let path) = services.configuration.storage else { return "ok" }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var stats = statvfs()
        guard statvfs(folder, &stats) == 0 else { return "ok" }
        let free = UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
        return free < Self.reserve ? "full" : "ok"
    }

    /// Whether the PostgreSQL server at `url` refuses (or cannot route) a TCP connection within 300 ms; a server
    /// that accepts one but does not answer is slow or hung instead.
    static func refusesConnections(_ url: URL) async -> Bool {
        guard let host = url.host, !host.isEmpty else { return true }
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(300))
        do {
            let channel = try await bootstrap.connect(host: host, port: url.port ?? 5432).get()
            try? await channel.close()
            return false
        } catch let error as ChannelError where error == .connectTimeout(.milliseconds(300)) {
            return false
        } catch {
            return true
        }
    }

    /// The database file and its folder (the log and its index live beside it) can be written.
    static func writable(_ path: String) -> Bool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return access(folder, W_OK) == 0 && (access(path, F_OK) != 0 || access(path, W_OK) == 0)
    }

    /// A failed check's name: what the fault classification says it is.
    static func name(of error: any Error, storage: PlazaConfiguration.Storage) -> String {
        guard let problem = DatabaseFault.problem(for: error) ?? (error as? PlazaError) else { return "unreachable" }
        switch problem.title {
        case PlazaError.databaseTimeout.title: return "timeout"
        case PlazaError.databaseReadOnly.title: return "read_only"
        default: return "unreachable"
        }
    }
}
