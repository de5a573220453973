import Foundation
import HTTPTypes
import PlazaCore

/// How long Plaza waits for its database (`PLAZA_DATABASE_TIMEOUT`): for a connection (the SQLite writer's turn, a
/// pooled PostgreSQL connection), for each statement, and for each transaction, so that a database that hangs,
/// restarts or is gone is answered 503 with `Retry-After` instead of holding a request.
///
/// Migrations, demo data and `plaza verify` run without the limits (`DatabaseTimeLimit.$unbounded`): they do long
/// work on purpose, and nobody waits on them with a 15-second client timeout.
enum DatabaseTimeLimit {
    /// Set for work that may take as long as it takes.
    @TaskLocal static var unbounded = false
    /// When the transaction running in this task must have finished: checked before each of its statements.
    @TaskLocal static var transactionEnds: ContinuousClock.Instant?

    /// Throws `databaseTimeout` when this task's transaction has run past its end.
    static func checkTransaction() throws {
        if let ends = transactionEnds, ContinuousClock.now > ends { throw PlazaError.databaseTimeout }
    }

    /// Runs `body` without time limits (migrations, demo data, verification).
    static func withoutLimits<T>(_ body: () async throws -> T) async rethrows -> T {
        try await $unbounded.withValue(true) { try await $transactionEnds.withValue(nil) { try await body() } }
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 (for settings written in them: SQLite's `busy_timeout`, PostgreSQL's timeouts).
    var wholeMilliseconds: Int {
        max(1, Int(components.seconds) * 1_000 + Int(components.attoseconds / 1_000_000_000_000_000))
    }
}

extension PlazaError {
    /// The database did not answer within `PLAZA_DATABASE_TIMEOUT` (busy, hung or restarting). Whether a write happened
    /// is unknown to the client, so it retries with its `Idempotency-Key`.
    static var databaseTimeout: PlazaError {
        var error = PlazaError(
            .serviceUnavailable,
            .unavailable,
            phrase("The database did not answer in time."),
            detail: phrase("Try again with the same Idempotency-Key: nothing happens twice.")
        )
        error.headers[.retryAfter] = "2"
        return error
    }

    /// The database cannot be reached or is starting, stopping or recovering.
    static var databaseUnreachable: PlazaError {
        var error = PlazaError(
            .serviceUnavailable,
            .unavailable,
            phrase("The database cannot be reached right now."),
            detail: phrase("Try again with the same Idempotency-Key: nothing happens twice.")
        )
        error.headers[.retryAfter] = "5"
        return error
    }

    /// The database takes no writes now (a replica being promoted, a read-only file).
    static var databaseReadOnly: PlazaError {
        var error = PlazaError(
            .serviceUnavailable,
            .unavailable,
            phrase("The database takes no changes right now."),
            detail: phrase("Try again with the same Idempotency-Key: nothing happens twice.")
        )
        error.headers[.retryAfter] = "5"
        return error
    }

    /// The disk under the database is full: nothing was written.
    static var databaseDiskFull: PlazaError {
        var error = PlazaError(
            HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
            .insufficientStorage,
            phrase("The server's storage is full, so nothing was saved."),
            detail: phrase("Try again later with the same Idempotency-Key; the operator has been told.")
        )
        error.headers[.retryAfter] = "30"
        return error
    }
}
