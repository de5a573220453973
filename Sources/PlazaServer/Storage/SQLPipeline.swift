import Logging
import NIOCore
import SQLKit
import SQLiteKit
import Synchronization

extension SQLDatabase {
    /// Runs `statements` in order and returns each one's rows, in order; throws the first statement's error.
    ///
    /// The statements run one after another without looking at each other's outcome: every statement runs even when
    /// an earlier one failed, so use it inside a transaction, which the error then rolls back. In a session on
    /// SQLite's writer, no commit can happen meanwhile (`SQLitePipelineGuard`).
    func pipeline(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        if let writer = self as? SQLiteWriterSession { return try await writer.pipelined(statements) }
        var results: [[any SQLRow]] = []
        for statement in statements { results.append(try await raw("\(statement)").all()) }
        return results
    }
}

/// Rows as they arrive.
private final class RowCollector: Sendable {
    private let collected = Mutex<[any SQLRow]>([])
    func append(_ row: any SQLRow) { collected.withLock { $0.append(row) } }
    var rows: [any SQLRow] { collected.withLock { $0 } }
}

/// Keeps SQLite's writer from committing anything while a pipeline's statements run.
///
/// SQLite rolls an open transaction back by itself on some errors (a full disk, an I/O error, no memory). The
/// statements queued behind the failing one would then each run on their own and commit: a credit without its debit.
/// With this guard as the writer's commit validator those commits are refused (the statements fail and change
/// nothing); the transaction's own COMMIT comes after the pipeline, when the guard is open again.
final class SQLitePipelineGuard: Sendable {
    private let inFlight = Atomic<Bool>(false)

    /// SQLite's commit hook for a connection that carries a guard (`SQLiteDirectConnection.commits`, the context).
    static let hook: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
        guard let context else { return 0 }
        return Unmanaged<SQLitePipelineGuard>.fromOpaque(context).takeUnretainedValue().inFlight.load(
            ordering: .acquiring
        ) ? 1 : 0
    }

    func hold() { inFlight.store(true, ordering: .releasing) }
    func release() { inFlight.store(false, ordering: .releasing) }
}

/// SQLite's writer as a session sees it: the connection itself, a transaction's BEGIN sent with its first statement,
/// and `pipeline` running many statements under the commit guard.
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

    /// Sends `statement` in front of the session's first statement instead of on its own: a transaction that runs no
    /// statement begins nothing. The commit guard covers the pair: were it to fail, the statement behind cannot commit alone.
    func open(with statement: any SQLExpression) {
        opening.set(statement)
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
        commits.hold()
        defer { commits.release() }
        var results: [[any SQLRow]] = []
        var firstError: (any Error)?
        for statement in statements {
            let rows = RowCollector()
            do {
                try await base.execute(sql: statement) { rows.append($0) }
            } catch {
                firstError = firstError ?? error
            }
            results.append(rows.rows)
        }
        if let firstError { throw firstError }
        return results
    }
}
