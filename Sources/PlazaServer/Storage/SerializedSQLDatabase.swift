import Logging
import NIOCore
import SQLKit

/// An `SQLDatabase` whose statements and sessions take turns on one connection.
///
/// A single SQLite connection cannot carry two transactions; one statement of another task would
/// otherwise land inside an open one. Every use goes through `lock`, a session holds it throughout.
struct SerializedSQLDatabase: SQLDatabase {
    let base: any SQLDatabase
    let lock: AsyncLock

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await lock.withLock { try await base.execute(sql: query, onRow) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await lock.withLock { try await closure(base) }
    }
}
