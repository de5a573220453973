import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import SQLiteNIO

/// The engines' errors that mean "the database cannot serve now", answered as such: 503 `unavailable` (unreachable,
/// restarting, past its timeout, read-only) or 507 `insufficient_storage` (the disk is full), each with `Retry-After`.
/// Any other database error is a defect and stays a logged 500.
enum DatabaseFault {
    /// The answer for `error` when it is a fault of the database's, not of Plaza's; nil otherwise.
    static func problem(for error: any Error) -> PlazaError? {
        switch error {
        case let error as PSQLError: return postgres(error)
        case let error as SQLiteError: return sqlite(error.reason)
        case let error as SQLiteFailure: return sqlite(primary: error.primary)
        case is ChannelError, is IOError, is NIOConnectionError: return .databaseUnreachable
        default:
            // The pool's own error type lives in a module Plaza does not import (its connections cannot be made).
            return String(describing: type(of: error)) == "ConnectionPoolError" ? .databaseUnreachable : nil
        }
    }

    /// What the log says of `error`: PostgreSQL's SQLSTATE and message where there is one (a `PSQLError` describes
    /// itself only vaguely, not to leak data), else the error as it reflects itself.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(reflecting: error) }
        let state = error.serverInfo?[.sqlState] ?? "-"
        return "PSQLError \(error.code) sqlstate=\(state) \(error.serverInfo?[.message] ?? "")"
    }

    static func postgres(_ error: PSQLError) -> PlazaError? {
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed:
            return .databaseUnreachable
        case .queryCancelled:
            return .databaseTimeout
        case .server:
            return postgres(state: error.serverInfo?[.sqlState] ?? "")
        default:
            return nil
        }
    }

    /// By SQLSTATE (PostgreSQL's appendix A).
    static func postgres(state: String) -> PlazaError? {
        switch state {
        // query_canceled (statement_timeout), idle_in_transaction_session_timeout, lock_not_available,
        // serialization_failure, deadlock_detected: try again.
        case "57014", "25P03", "55P03", "40001", "40P01": return .databaseTimeout
        // admin_shutdown, crash_shutdown, cannot_connect_now, database_dropped, too_many_connections, out_of_memory
        case "57P01", "57P02", "57P03", "57P04", "53300", "53200": return .databaseUnreachable
        case "53100": return .databaseDiskFull
        // read_only_sql_transaction: a standby, before or during a failover
        case "25006": return .databaseReadOnly
        default: return state.hasPrefix("08") ? .databaseUnreachable : nil
        }
    }

    /// By SQLite's primary result code (the writer's own errors, `SQLiteFailure`), as `sqlite(_:)` by its reason.
    static func sqlite(primary code: Int32) -> PlazaError? {
        switch code {
        case 13: return .databaseDiskFull  // SQLITE_FULL
        case 5, 6, 9: return .databaseTimeout  // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_INTERRUPT
        case 8: return .databaseReadOnly  // SQLITE_READONLY
        case 7, 10, 14: return .databaseUnreachable  // SQLITE_NOMEM, SQLITE_IOERR, SQLITE_CANTOPEN
        default: return nil
        }
    }

    static func sqlite(_ reason: SQLiteError.Reason) -> PlazaError? {
        switch reason {
        case .full: return .databaseDiskFull
        case .busy, .locked, .busyTimeout, .busyInRecovery, .busyInSnapshot, .lockedBySharedCache, .interrupt:
            return .databaseTimeout
        case .readOnly, .readonlyInRecovery, .readonlyCantLock, .readonlyInRollback, .readonlyBackingMoved,
            .readonlyDirectory:
            return .databaseReadOnly
        case .ioError, .ioErrorFailedRead, .ioErrorIncompleteRead, .ioErrorFailedWrite, .ioErrorFailedSync,
            .ioErrorFailedDirSync, .ioErrorFailedTruncate, .ioErrorFailedStat, .ioErrorFailedAccess,
            .ioErrorFailedSharedMemOpen, .ioErrorFailedSharedMemSize, .ioErrorFailedSharedMemMap,
            .ioErrorFailedMemoryMap, .cantOpen, .cantOpenDirectory, .noMemory, .ioErrorNoMemory:
            return .databaseUnreachable
        default:
            return nil
        }
    }
}
