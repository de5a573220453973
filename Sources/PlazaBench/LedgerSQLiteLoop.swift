import Foundation
import Logging
import NIOCore
import PlazaDemo
import PlazaServer
import SQLiteKit

/// The SQLite peer of `plaza bench ledger`: the statements a Plaza transfer writes to the ledger (conditional debit,
/// credit, journal entry, postings, both sides' activity) in one transaction, straight through SQLiteNIO from a
/// loop in this process: no HTTP, no authentication, no idempotency record, no user lookup.
struct LedgerSQLiteLoop {
    let path: String
    let logger: Logger

    func run(_ pairs: [LedgerBench.Pair], users: [LedgerBenchData.User]) async throws -> LoadMeter.Result {
        let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        for pragma in [
            "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
            "PRAGMA busy_timeout=5000",
        ] {
            _ = try await connection.query(pragma)
        }
        do {
            let owners = users.map { SQLiteData.text($0.id.uuidString) }
            let names = users.map { SQLiteData.text($0.username) }
            let result = try await LoadMeter(concurrency: 1).run(pairs.count) { index in
                guard try await Self.transfer(pairs[index], owners: owners, names: names, on: connection) else {
                    throw HTTPPool.BenchFailure(
                        description: "the SQLite loop's debit of account \(pairs[index].from) found no row"
                    )
                }
            }
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Whether the transfer was made (the debit found its account with enough money).
    static func transfer(
        _ pair: LedgerBench.Pair,
        owners: [SQLiteData],
        names: [SQLiteData],
        on connection: SQLiteConnection
    ) async throws -> Bool {
        let now = SQLiteData.float(Date().timeIntervalSince1970)
        let amount = SQLiteData.integer(Int(pair.amount))
        let (entry, reference) = (SQLiteData.text(UUID().uuidString), SQLiteData.text(UUID().uuidString))
        _ = try await connection.query("BEGIN IMMEDIATE")
        // Accounts in id order, as Plaza's ledger takes them.
        for leg in pair.from < pair.to ? [true, false] : [false, true] {
            if leg {
                let debited = try await connection.query(
                    "UPDATE wallet_accounts SET balance = balance + ?, updated_at = ? WHERE owner_id = ? AND currency = 'USD' AND balance >= ? RETURNING owner_id",
                    [.integer(-Int(pair.amount)), now, owners[pair.from], amount]
                )
                guard !debited.isEmpty else {
                    _ = try await connection.query("ROLLBACK")
                    return false
                }
            } else {
                _ = try await connection.query(
                    "INSERT INTO wallet_accounts (owner_id, currency, kind, balance, updated_at) VALUES (?, 'USD', 'user', ?, ?) "
                        + "ON CONFLICT (owner_id, currency) DO UPDATE SET balance = wallet_accounts.balance + excluded.balance, updated_at = excluded.updated_at",
                    [owners[pair.to], amount, now]
                )
            }
        }
        _ = try await connection.query(
            "INSERT INTO journal_entries (id, kind, reference_id, created_at) VALUES (?, 'transfer', ?, ?)",
            [entry, reference, now]
        )
        _ = try await connection.query(
            "INSERT INTO postings (entry_id, owner_id, currency, amount) VALUES (?, ?, 'USD', ?), (?, ?, 'USD', ?)",
            [entry, owners[pair.from], .integer(-Int(pair.amount)), entry, owners[pair.to], amount]
        )
        let activity =
            "INSERT INTO wallet_activity (id, owner_id, kind, amount, currency, status, counterpart_kind, counterpart_id, counterpart_username, "
            + "counterpart_name, note, reference_id, created_at) VALUES "
            + "(?, ?, 'transfer_out', ?, 'USD', 'succeeded', 'user', ?, ?, ?, NULL, ?, ?), (?, ?, 'transfer_in', ?, 'USD', 'succeeded', 'user', ?, ?, ?, NULL, ?, ?)"
        _ = try await connection.query(
            activity,
            [
                .text(UUID().uuidString), owners[pair.from], .integer(-Int(pair.amount)), owners[pair.to],
                names[pair.to], names[pair.to], reference,
                now,
                .text(UUID().uuidString), owners[pair.to], amount, owners[pair.from], names[pair.from],
                names[pair.from], reference, now,
            ]
        )
        _ = try await connection.query("COMMIT")
        return true
    }
}
