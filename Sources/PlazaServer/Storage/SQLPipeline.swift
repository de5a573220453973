import Logging
import NIOCore
import SQLKit
import SQLiteKit
import Synchronization

extension SQLDatabase {
    /// Runs `statements` in order and returns each one's rows, in order; throws the first statement's error.
    ///
    /// In a session on SQLite's writer the statements go to its thread all at once and run there one after another,
    /// so the batch pays one hand-over to that thread and back instead of one per statement. Elsewhere (PostgreSQL,
    /// SQLite outside a session) they run one after another. Every statement runs even when an earlier one failed:
    /// use it inside a transaction, which the error then rolls back.
    func pipeline(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        if let writer = self as? SQLiteWriterSession { return try await writer.pipelined(statements) }
        var results: [[any SQLRow]] = []
        for statement in statements { results.append(try await raw("\(statement)").all()) }
        return results
    }
}

/// Rows as they arrive, from whichever thread delivers them.
private final class RowCollector: Sendable {
    private let collected = Mutex<[any SQLRow]>([])
    func append(_ row: any SQLRow) { collected.withLock { $0.append(row) } }
    var rows: [any SQLRow] { collected.withLock { $0 } }
}

/// Keeps SQLite's writer from committing anything while a pipeline's statements wait on its thread.
///
/// SQLite rolls an open transaction back by itself on some errors (a full disk, an I/O error, no memory). The
/// statements queued behind the failing one would then each run on their own and commit: a credit without its debit.
/// With this guard as the writer's commit validator those commits are refused (the statements fail and change
/// nothing); the transaction's own COMMIT comes after the pipeline, when the guard is open again.
final class SQLitePipelineGuard: Sendable {
    private let inFlight = Atomic<Bool>(false)

    /// Registers the guard on `connection` (the writer), for as long as the connection lives.
    func install(on connection: SQLiteConnection) async throws {
        _ = try await connection.setCommitValidator(lifetime: .pinned) { [self] _ in
            inFlight.load(ordering: .acquiring) ? .deny : .allow
        }
    }

    func hold() { inFlight.store(true, ordering: .releasing) }
    func release() { inFlight.store(false, ordering: .releasing) }
}

/// SQLite's writer as a session sees it: the connection itself, and `pipeline` sending many statements at once.
/// The connection's thread pool must have one thread, so that statements sent together run in the order sent.
struct SQLiteWriterSession: ForwardingSQLDatabase {
    let base: any SQLDatabase
    let commits: SQLitePipelineGuard
    /// A statement (a transaction's BEGIN) to send together with the session's first ones.
    let opening = Opening()

    final class Opening: Sendable {
        private let state = Mutex<(statement: (any SQLExpression)?, sent: Bool)>((nil, false))

        func set(_ statement: any SQLExpression) { state.withLock { $0 = (statement, false) } }

        /// The statement, once; from then on `sent` is true.
        func take() -> (any SQLExpression)? {
            state.withLock { state in
                guard let statement = state.statement else { return nil }
                state = (nil, true)
                return statement
            }
        }

        var sent: Bool { state.withLock(\.sent) }
    }

    /// Sends `statement` in front of the session's first statement instead of on its own: one hand-over to the
    /// writer's thread fewer. The commit guard covers the pair: were it to fail, the statement behind cannot commit alone.
    func open(with statement: any SQLExpression) {
        opening.set(statement)
    }

    func execute(
        sql query: any SQLExpression,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try DatabaseTimeLimit.checkTransaction()
        guard let first = opening.take() else { return try await base.execute(sql: query, onRow) }
        for row in try await send([first, query])[1] { onRow(row) }
    }

    fileprivate func pipelined(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        guard let first = opening.take() else { return try await send(statements) }
        return Array(try await send([first] + statements).dropFirst())
    }

    private func send(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        let collectors = statements.map { _ in RowCollector() }
        commits.hold()
        // SQLiteKit's future-returning `execute` hands the statement to the connection's thread before it returns.
        let futures = zip(statements, collectors).map { statement, rows in
            base.execute(sql: statement) { rows.append($0) }
        }
        let outcomes = try await EventLoopFuture.whenAllComplete(futures, on: eventLoop).get()
        commits.release()
        for case .failure(let error) in outcomes { throw error }
        return collectors.map(\.rows)
    }
}
