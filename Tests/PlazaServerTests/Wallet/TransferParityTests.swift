import Foundation
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// A transfer batch is written by SQLKit statements on SQLite and by one prepared statement on PostgreSQL: the same
/// transfers must leave the same journal, postings, balances, history and idempotency rows on both, ids and times aside.
@Suite struct TransferParityTests {
    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func theSameTransfersWriteTheSameRowsOnBothEngines() async throws {
        let sqlite = try await Self.rows(after: .sqlite)
        let postgres = try await Self.rows(after: .postgres)
        #expect(sqlite.values.map(\.count).reduce(0, +) > 20)
        for (table, rows) in sqlite { #expect(rows == postgres[table], "\(table)") }
    }

    /// Transfers in one batch and alone, with and without a note, a retried key, a refused debit and an unknown
    /// recipient; then every row they wrote, by username, sorted.
    static func rows(after engine: TestEngine) async throws -> [String: [String]] {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (accounts, wallet) = (AccountsDriver(client), WalletDriver(client))
            let anna = try await accounts.signedIn("anna").accessToken
            let ben = try await accounts.signedIn("ben").accessToken
            _ = try await accounts.signedIn("cleo")
            _ = try await wallet.fund(5_000, token: anna)
            _ = try await wallet.fund(1_000, token: ben)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, (to, amount, note)) in [
                    ("ben", 700, "Lunch"), ("cleo", 300, nil), ("cleo", 250, "Tickets"), ("ben", 50, nil),
                ]
                .enumerated() {
                    group.addTask {
                        _ = try await wallet.transfer(
                            to: to,
                            Int64(amount),
                            note: note,
                            key: "batch-\(index)",
                            token: anna
                        )
                    }
                }
                group.addTask {
                    _ = try await wallet.transfer(to: "cleo", 400, note: "Books", key: "ben-1", token: ben)
                }
                try await group.waitForAll()
            }
            _ = try await wallet.transfer(to: "ben", 100, note: "again", key: "retried", token: anna)
            _ = try await wallet.transfer(to: "ben", 100, note: "again", key: "retried", token: anna)
            _ = try await wallet.transfer(to: "cleo", 99_999, key: "too-much", token: anna)
            _ = try await wallet.transfer(to: "nobody", 10, key: "unknown", token: anna)
            return try await dump(services.database.sql)
        }
    }

    static func dump(_ db: any SQLDatabase) async throws -> [String: [String]] {
        func rows(_ sql: String, _ columns: [String]) async throws -> [String] {
            try await db.raw(SQLQueryString(sql)).all().map { row in
                try columns.map { column -> String in
                    if let number = try? row.decode(column: column, as: Int64.self) { return String(number) }
                    return try row.decode(column: column, as: String?.self) ?? "-"
                }.joined(separator: "|")
            }.sorted()
        }
        // Plaza's own accounts (the processor's clearing account) have no user: one label on both engines.
        let owner = "COALESCE(u.username, 'plaza')"
        return [
            "postings": try await rows(
                "SELECT j.kind, \(owner) AS who, p.currency, p.amount FROM postings p "
                    + "JOIN journal_entries j ON j.id = p.entry_id LEFT JOIN users u ON u.id = p.owner_id",
                ["kind", "who", "currency", "amount"]
            ),
            "balances": try await rows(
                "SELECT \(owner) AS who, w.currency, w.kind, w.balance FROM wallet_accounts w "
                    + "LEFT JOIN users u ON u.id = w.owner_id",
                ["who", "currency", "kind", "balance"]
            ),
            "activity": try await rows(
                "SELECT u.username, a.kind, a.amount, a.currency, a.status, a.counterpart_kind, a.counterpart_username, a.counterpart_name, a.note "
                    + "FROM wallet_activity a JOIN users u ON u.id = a.owner_id",
                [
                    "username", "kind", "amount", "currency", "status", "counterpart_kind", "counterpart_username",
                    "counterpart_name", "note",
                ]
            ),
            "idempotency": try await db.raw(
                "SELECT key, status, content_type, body FROM idempotency_keys WHERE key NOT LIKE 'page:%'"
            ).all().map {
                row in
                let body = try row.decode(column: "body", as: String?.self) ?? ""
                var json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
                for key in ["id", "createdAt", "updatedAt"] { json[key] = nil }
                let normalized = String(
                    decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]),
                    as: UTF8.self
                )
                let key = try row.decode(column: "key", as: String.self)
                // The top-ups' keys are random (WalletDriver.fund); the transfers' are named above.
                return
                    "\(UUID(uuidString: key) == nil ? key : "(random)")|\(try row.decode(column: "status", as: Int?.self) ?? 0)|"
                    + "\(try row.decode(column: "content_type", as: String?.self) ?? "-")|\(normalized)"
            }.sorted(),
        ]
    }
}
