import HTTPTypes
import NIOCore
import PlazaCore
import PostgresNIO
import Synchronization

/// Every statement Plaza sends to PostgreSQL goes through here, so that a lost connection is an error and never a hang.
///
/// PostgresNIO 1.33.2 writes a statement to its connection's channel without a write promise. Once the channel has
/// closed, NIO has taken the connection's handler out of the pipeline, the write goes nowhere, and the statement's
/// promise is never completed: its task waits forever. Under `pg_terminate_backend` or a database restart this hit the
/// ROLLBACK after a broken statement, a statement on a connection that broke between two statements, and a statement on
/// a connection the pool leased just as it closed. Each one held its pool lease forever; a transfer batch among them
/// stopped every transfer, and SIGTERM could not stop the pool (issue 36).
///
/// So: a connection known to be closed is refused before anything is written; and a statement still waiting `grace`
/// after its connection closed is answered with a retryable 503, its lost task left behind (it holds nothing but
/// memory). Statements written before the close are failed by PostgresNIO itself, long before `grace` runs out.
enum PostgresStatementGuard {
    /// How long a statement may still be answered after its connection closed (PostgresNIO fails the ones it knows of
    /// at once; this only bounds the ones it lost).
    static let grace: TimeAmount = .seconds(1)

    /// The connections with statements in flight, by identity: each is watched once for its close.
    private static let watched = Mutex<[ObjectIdentifier: Watch]>([:])
    private static let nextID = Atomic<UInt64>(0)

    private struct Watch {
        /// Kept alive while watched, so that its identity is not reused.
        let connection: PostgresConnection
        var closed = false
        var waiting: [UInt64: @Sendable () -> Void] = [:]
    }

    /// `body` (one or more statements on `connection`), or `PlazaError.databaseConnectionLost` when the connection
    /// closed under it, or `PlazaError.databaseTimeout` when it went unanswered for `limit` (a hung server: the
    /// connection is then closed, so that the pool drops it and the server ends its transaction when it wakes).
    static func run<T: Sendable>(
        on connection: PostgresConnection,
        within limit: Duration? = nil,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard !connection.isClosed else { throw PlazaError.databaseConnectionLost }
        let id = nextID.add(1, ordering: .relaxed).newValue
        let lost = Result<T, any Error>.failure(PlazaError.databaseConnectionLost)
        return try await FirstAnswer.of(
            { () async -> Result<T, any Error> in
                do { return .success(try await body()) } catch { return .failure(error) }
            },
            rival: { answer in
                if !watch(connection, id: id, fail: { answer(lost) }) { answer(lost) }
                guard let limit else { return }
                let nanoseconds = Int64(limit.wholeMilliseconds) * 1_000_000
                let hung = connection.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                    answer(.failure(PlazaError.databaseTimeout))
                    let closing: EventLoopFuture<Void> = connection.close()
                    _ = closing
                }
                timers.withLock { $0[id] = hung }
            },
            done: {
                forget(id, on: connection)
                timers.withLock { $0.removeValue(forKey: id) }?.cancel()
            }
        ).get()
    }

    /// The hang timers of statements in flight, by statement.
    private static let timers = Mutex<[UInt64: Scheduled<Void>]>([:])

    /// Registers a statement's way to fail; false when its connection is already known to be closed.
    private static func watch(
        _ connection: PostgresConnection,
        id: UInt64,
        fail: @escaping @Sendable () -> Void
    ) -> Bool {
        let key = ObjectIdentifier(connection)
        let (accepted, isNew) = watched.withLock { watched -> (Bool, Bool) in
            guard var watch = watched[key] else {
                watched[key] = Watch(connection: connection, waiting: [id: fail])
                return (true, true)
            }
            guard !watch.closed else { return (false, false) }
            watch.waiting[id] = fail
            watched[key] = watch
            return (true, false)
        }
        if isNew { connection.closeFuture.whenComplete { _ in closed(key, on: connection.eventLoop) } }
        return accepted
    }

    private static func forget(_ id: UInt64, on connection: PostgresConnection) {
        let key = ObjectIdentifier(connection)
        watched.withLock { watched in
            guard watched[key] != nil else { return }
            watched[key]?.waiting[id] = nil
        }
    }

    /// The connection closed: what it still owes after `grace` was lost.
    private static func closed(_ key: ObjectIdentifier, on loop: any EventLoop) {
        watched.withLock { $0[key]?.closed = true }
        loop.scheduleTask(in: grace) {
            let lost = watched.withLock { $0.removeValue(forKey: key)?.waiting.values.map { $0 } ?? [] }
            for fail in lost { fail() }
        }
    }
}

extension PlazaError {
    /// The database connection closed under a statement (a restart, a terminated backend, a network fault). Whether
    /// the statement happened is unknown, so a retry with the same `Idempotency-Key` is the way on.
    static var databaseConnectionLost: PlazaError {
        var error = PlazaError(
            .serviceUnavailable,
            .unavailable,
            "The connection to the database was lost.",
            detail: "Try again with the same Idempotency-Key: nothing happens twice."
        )
        error.headers[.retryAfter] = "1"
        return error
    }
}
