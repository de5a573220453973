import Logging
import NIOCore
import SQLKit
import Synchronization

/// An `SQLDatabase` whose statements and sessions take turns on one connection.
///
/// A single SQLite connection cannot carry two transactions; one statement of another task would
/// otherwise land inside an open one. Every use goes through `lock`, a session holds it throughout.
///
/// A lone `SELECT` outside any session (built, or raw SQL whose first word is `SELECT`) goes to one of `readers`,
/// other connections to the same file, the one with the fewest statements queued or running: in WAL mode they read
/// the last commit while the writer carries on, instead of waiting for its turn. (A `WITH … SELECT` stays on the
/// writer: its first word cannot tell.) Taking turns instead left a search queued behind a slow one while the other
/// reader was idle (p99 77 ms at 32 clients in `plaza bench market`).
struct SerializedSQLDatabase: ForwardingSQLDatabase {
    let base: any SQLDatabase
    let lock: AsyncLock
    var readers: [SQLiteReader] = []
    /// Called after each use of the writer (the checkpointer's cue).
    var written: @Sendable () -> Void = {}
    /// When set, sessions get the writer as an `SQLiteWriterSession` that can pipeline, guarded by this.
    var pipelineGuard: SQLitePipelineGuard?
    /// How long a statement or session waits for its connection (`PLAZA_DATABASE_TIMEOUT`); nil waits for ever.
    var timeout: Duration?
    /// Where the writer's statements and sessions run (SQLite's C API called on it); nil: where their caller does.
    var writerThread: SQLiteThread?
    private let queued = Queued()
    /// Every statement here is reported to it (`db_client_operation_duration_seconds`).
    let timing = StatementTiming()

    /// Statements queued or running on each reader.
    private final class Queued: Sendable {
        private let counts = Mutex<[Int]>([])

        /// The reader of the first `count` with the fewest statements, counted in (`leave` counts it out).
        func enter(of count: Int) -> Int {
            counts.withLock { counts in
                if counts.count < count { counts += Array(repeating: 0, count: count - counts.count) }
                var chosen = 0
                for index in 1..<count where counts[index] < counts[chosen] { chosen = index }
                counts[chosen] += 1
                return chosen
            }
        }

        func leave(_ index: Int) { counts.withLock { $0[index] -= 1 } }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        // A SELECT, built or raw (the feed's search is raw SQL): the readers run two at once beside the writer.
        let operation = StatementTiming.operation(of: query)
        if !readers.isEmpty, operation == "SELECT" {
            let index = queued.enter(of: readers.count)
            defer { queued.leave(index) }
            let reader = readers[index]
            try await withTaskExecutorPreference(reader.thread) {
                try await reader.lock.withLock(within: limit) {
                    try await timing.measure(operation) {
                        try await reader.database.execute(sql: query, onRow)
                    }
                }
            }
        } else {
            defer { written() }
            try await withTaskExecutorPreference(writerThread) {
                try await lock.withLock(within: limit) {
                    try await timing.measure(operation) {
                        try await base.execute(sql: query, onRow)
                    }
                }
            }
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        defer { written() }
        let timed = TimedSQLDatabase(base: base, timing: timing)
        let session: any SQLDatabase = pipelineGuard.map { SQLiteWriterSession(base: timed, commits: $0) } ?? timed
        return try await withTaskExecutorPreference(writerThread) {
            try await lock.withLock(within: limit) { try await closure(session) }
        }
    }

    /// The wait allowed for a connection now: none for work without limits (`DatabaseTimeLimit.unbounded`).
    private var limit: Duration? { DatabaseTimeLimit.unbounded ? nil : timeout }
}

/// One of SQLite's reader connections: a statement at a time (`lock`), run on its own thread when it has one.
struct SQLiteReader: Sendable {
    let database: any SQLDatabase
    let lock = AsyncLock()
    var thread: SQLiteThread?
}

/// An `SQLDatabase` that runs its statements on `base` and describes itself as `base` does.
protocol ForwardingSQLDatabase: AsyncSQLDatabase {
    var base: any SQLDatabase { get }
}

/// An `SQLDatabase` whose statements run in `async` code; its future-returning `execute` runs that in a task.
protocol AsyncSQLDatabase: SQLDatabase {}

extension AsyncSQLDatabase {
    func execute(
        sql query: any SQLExpression,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }
}

extension ForwardingSQLDatabase {
    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }
}
