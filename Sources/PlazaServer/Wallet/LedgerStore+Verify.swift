import Foundation
import SQLKit

/// The ledger's part of `plaza verify`: its own check as findings, and what other domains' checks compare with.
extension LedgerStore {
    /// `verify` (the check of `plaza ledger verify`, kept the one source of truth) as `ledger_balance` findings: each
    /// discrepancy names an account (`owner currency`) or a journal entry, which becomes the finding's id.
    func findings(on db: any SQLDatabase) async throws -> [VerifyFinding] {
        try await verify(on: db).map { Self.finding($0.description) }
    }

    /// Splits `account <owner> <currency>…` or `entry <id>…` into the object and what is wrong with it.
    static func finding(_ line: String) -> VerifyFinding {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let taken: Int
        var id: String
        switch words.first {
        case "account" where words.count > 3:
            (taken, id) = (3, "\(words[1].lowercased()) \(words[2])")
        case "entry" where words.count > 2:
            (taken, id) = (2, words[1].lowercased())
        default:
            return VerifyFinding(kind: .ledgerBalance, id: "ledger", message: line)
        }
        if id.hasSuffix(":") { id.removeLast() }
        var message = words.dropFirst(taken).joined(separator: " ")
        if message.isEmpty { message = line }
        return VerifyFinding(kind: .ledgerBalance, id: id, message: message)
    }

    /// The balance of Plaza's market hold account per currency (what `escrow_total` compares with the held payments).
    func marketHoldBalances(on db: any SQLDatabase) async throws -> [String: Int64] {
        let rows = try await db.select().columns("currency", "balance").from("wallet_accounts").where(
            "owner_id",
            .equal,
            SystemAccount.marketHolds
        )
        .all()
        var balances: [String: Int64] = [:]
        for row in rows {
            balances[try row.decode(column: "currency", as: String.self)] = try row.decode(
                column: "balance",
                as: Int64.self
            )
        }
        return balances
    }

    /// What each journal entry of `kind` moved (the sum of its credits), by its reference; references without one are absent.
    func amounts(kind: String, references: [UUID], on db: any SQLDatabase) async throws -> [UUID: Int64] {
        var amounts: [UUID: Int64] = [:]
        for chunk in references.chunked(by: 500) {
            let rows = try await db.raw(
                """
                SELECT j.reference_id, CAST(COALESCE(SUM(p.amount), 0) AS BIGINT) AS total FROM journal_entries j
                JOIN postings p ON p.entry_id = j.id AND p.amount > 0
                WHERE j.kind = \(bind: kind) AND j.reference_id IN (\(binds: chunk)) GROUP BY j.reference_id
                """
            ).all()
            for row in rows {
                amounts[try row.decode(column: "reference_id", as: UUID.self)] = try row.decode(
                    column: "total",
                    as: Int64.self
                )
            }
        }
        return amounts
    }
}

extension LedgerStore {
    /// How many journal entries of `kind` each reference has (a transfer's id: exactly one when nothing was lost or
    /// doubled); what `plaza bench chaos` compares the answers it was given with.
    func entryCounts(kind: String, on db: any SQLDatabase) async throws -> [UUID: Int] {
        let rows = try await db.select().column("reference_id").column(
            SQLFunction("COUNT", args: SQLLiteral.all),
            as: "n"
        )
        .from("journal_entries").where("kind", .equal, kind).groupBy("reference_id").all()
        var counts: [UUID: Int] = [:]
        for row in rows {
            counts[try row.decode(column: "reference_id", as: UUID.self)] = try row.decode(column: "n", as: Int.self)
        }
        return counts
    }
}

extension PlazaServices {
    /// Every transfer in the journal, with its number of entries (1 each, when sound).
    package func transferEntryCounts() async throws -> [UUID: Int] {
        try await wallet.ledger.entryCounts(kind: WalletService.transferJournalKind, on: database.sql)
    }
}
