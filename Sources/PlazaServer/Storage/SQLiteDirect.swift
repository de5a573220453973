import Foundation
import Logging
import NIOCore
import SQLKit
import SQLiteKit
import SQLiteNIO
import Synchronization
import VaporCSQLite

/// SQLite's writer: one connection driven through SQLite's C API on the calling thread.
///
/// SQLiteNIO hands every statement to a thread of its pool and the answer back to an event loop, then to the awaiting
/// task: three thread hand-overs for a statement that runs in microseconds. The writer takes turns anyway (one
/// transaction at a time, `SerializedSQLDatabase`'s lock), so here the task that holds the turn runs its statements
/// itself, and each prepared statement is kept for the next time its SQL comes (`SQLiteStatementCache`).
///
/// Values are bound and read as SQLiteKit does (`SQLiteDataEncoder`, `SQLiteDataDecoder`): what one writes, the other
/// reads back alike. A statement runs to its end while it holds the connection's mutex, so two tasks of one session
/// never interleave their steps.
struct SQLiteDirectDatabase: SQLDatabase {
    let connection: SQLiteDirectConnection
    let logger: Logger
    let eventLoop: any EventLoop
    var version: (any SQLDatabaseReportedVersion)? { SQLiteDirectVersion.runtime }
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { .trace }

    private static let encoder = SQLiteDataEncoder()

    func execute(
        sql query: any SQLExpression,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) -> EventLoopFuture<Void> {
        do {
            try run(query, onRow)
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try run(query, onRow)
    }

    private func run(_ query: any SQLExpression, _ onRow: (any SQLRow) -> Void) throws {
        let (sql, binds) = serialize(query)
        if logger.logLevel <= .trace {
            logger.trace("Executing query", metadata: ["sql": .string(sql), "binds": .array(binds.map { "\($0)" })])
        }
        try connection.run(sql, binds.map { try Self.encoder.encode($0) }, onRow)
    }
}

/// The version SQLKit asks a database for: the SQLite library linked in.
struct SQLiteDirectVersion: SQLDatabaseReportedVersion {
    static let runtime = SQLiteDirectVersion(intValue: Int(sqlite_nio_sqlite3_libversion_number()))

    let intValue: Int
    var stringValue: String { "\(intValue / 1_000_000).\(intValue / 1_000 % 1_000).\(intValue % 1_000)" }

    func isEqual(to otherVersion: any SQLDatabaseReportedVersion) -> Bool {
        (otherVersion as? Self)?.intValue == intValue
    }

    func isOlder(than otherVersion: any SQLDatabaseReportedVersion) -> Bool {
        (otherVersion as? Self).map { intValue < $0.intValue } ?? false
    }
}

/// An error SQLite returned: its extended result code and message.
struct SQLiteFailure: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_IOERR_WRITE`, …); `code & 0xff` is the primary one.
    let code: Int32
    let message: String

    var primary: Int32 { code & 0xff }
    var description: String { "SQLite error \(code): \(message)" }
}

/// One open `sqlite3` handle and its prepared statements, used by one thread at a time (its mutex).
final class SQLiteDirectConnection: Sendable {
    private let state: Mutex<SQLiteStatementCache>
    /// SQLite's library set up once, before any connection of this kind opens (as SQLiteNIO does for its own).
    private static let initialized: Void = { _ = sqlite_nio_sqlite3_initialize() }()

    /// Refuses every commit while it is held (a pipeline's statements run).
    let commits = SQLitePipelineGuard()

    /// Opens (creating when absent) the database at `path`, waiting up to `busy` ms for another connection's lock.
    init(path: String, busyMilliseconds busy: Int) throws {
        _ = Self.initialized
        var handle: OpaquePointer?
        let flags =
            SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
            | SQLITE_OPEN_EXRESCODE
        let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard opened == SQLITE_OK, let handle else {
            let reason = handle.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "no handle"
            let failure = SQLiteFailure(code: opened, message: "cannot open the SQLite database at \(path): \(reason)")
            sqlite_nio_sqlite3_close(handle)
            throw failure
        }
        sqlite_nio_sqlite3_busy_timeout(handle, Int32(clamping: busy))
        state = Mutex(SQLiteStatementCache(handle: handle))
        _ = sqlite_nio_sqlite3_commit_hook(
            handle,
            SQLitePipelineGuard.hook,
            Unmanaged.passUnretained(commits).toOpaque()
        )
    }

    /// Runs `sql` with `binds`, handing each row to `onRow` as it comes.
    func run(_ sql: String, _ binds: [SQLiteData], _ onRow: (any SQLRow) -> Void) throws {
        try state.withLock { try $0.run(sql, binds, onRow) }
    }

    /// Finalizes every statement and closes the handle; the connection must not be used afterwards.
    func close() {
        state.withLock { $0.close() }
    }

    deinit {
        close()
    }
}
