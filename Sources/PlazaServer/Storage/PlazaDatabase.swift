import Logging
import SQLKit
import ServiceLifecycle
import Synchronization

/// Plaza's storage: one SQLKit front over SQLite or PostgreSQL.
///
/// Stores take an `any SQLDatabase` so the same store method runs alone (`database.sql`) or inside a
/// transaction (`database.transaction { db in ... }`). Never use `sql` inside a transaction body: on
/// SQLite it waits for the transaction that is waiting for it (debug builds stop with a message, see `AsyncLock`).
public final class PlazaDatabase: Sendable {
    public let engine: DatabaseEngine
    /// `PLAZA_DATABASE_TIMEOUT`: how long a transaction may run (see `DatabaseTimeLimit`); nil for no limit.
    let timeout: Duration?
    /// For single statements; safe to share between tasks.
    public let sql: any SQLDatabase
    /// Background work the engine needs while in use (PostgreSQL's connection pool).
    let service: (any Service)?
    private let closer: @Sendable () async throws -> Void
    private let closed = Mutex(false)
    /// Told how long each session waited for its connection (the SQLite writer or a pooled PostgreSQL one).
    private let sessionWait = CallbackSlot<Duration>()

    init(
        engine: DatabaseEngine,
        timeout: Duration?,
        sql: any SQLDatabase,
        service: (any Service)?,
        close: @escaping @Sendable () async throws -> Void
    ) {
        self.engine = engine
        self.timeout = timeout
        self.sql = sql
        self.service = service
        self.closer = close
    }

    /// Reports session waits to `observer` (the metrics of the application using this database).
    func observeSessionWaits(_ observer: @escaping @Sendable (Duration) -> Void) {
        sessionWait.set(observer)
    }

    /// Runs `body` on one connection that no other task uses meanwhile.
    public func withSession<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let requested = ContinuousClock.now
        let observer = sessionWait
        return try await sql.withSession { db in
            observer(ContinuousClock.now - requested)
            return try await body(db)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. One that runs past the
    /// database timeout is rolled back at its next statement (503 `unavailable`), unless `DatabaseTimeLimit.unbounded`.
    public func transaction<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let begin = engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        let limit = DatabaseTimeLimit.unbounded ? nil : timeout
        return try await withSession { db in
            let ends = limit.map { ContinuousClock.now + $0 }
            return try await DatabaseTimeLimit.$transactionEnds.withValue(ends) {
                try await Self.run(begin: begin, on: db, body)
            }
        }
    }

    private static func run<T: Sendable>(
        begin: String,
        on db: any SQLDatabase,
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        // SQLite's writer sends BEGIN with the transaction's first statements; a transaction that sent none began
        // nothing, so it has nothing to commit or roll back.
        let writer = db as? SQLiteWriterSession
        if let writer { writer.open(with: SQLRaw(begin)) } else { try await db.raw(SQLQueryString(begin)).run() }
        do {
            let result = try await body(db)
            if writer?.opening.sent ?? true { try await db.raw("COMMIT").run() }
            return result
        } catch {
            // The rollback runs whatever the time: it ends what the deadline cut short.
            if writer?.opening.sent ?? true {
                try? await DatabaseTimeLimit.$transactionEnds.withValue(nil) { try await db.raw("ROLLBACK").run() }
            }
            throw error
        }
    }

    /// Closes every connection (once; later calls do nothing). The database must not be used afterwards.
    public func close() async throws {
        let alreadyClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !alreadyClosed else { return }
        do {
            // Unstructured on purpose: a cancelled caller (a service group shutting down) must still close.
            try await Task { try await closer() }.value
        } catch {
            closed.withLock { $0 = false }
            throw error
        }
    }
}
