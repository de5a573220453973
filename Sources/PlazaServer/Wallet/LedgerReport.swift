import Foundation
import SQLKit

/// What `plaza ledger verify` found.
public struct LedgerReport: Sendable, CustomStringConvertible {
    public var accounts: Int
    public var entries: Int
    /// One line per difference; empty when the ledger is sound.
    public var problems: [String]

    public var description: String {
        let summary = "\(accounts) accounts, \(entries) journal entries: "
        return problems.isEmpty
            ? summary + "every balance matches its postings, every entry balances."
            : summary + "\(problems.count) problems\n"
                + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension PlazaServices {
    /// Recomputes every balance from the journal (the command `plaza ledger verify`; tests run it after concurrency).
    public func verifyLedger() async throws -> LedgerReport {
        let db = database.sql
        let problems = try await wallet.ledger.verify(on: db).map(\.description)
        let count = { (table: String) in
            try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table).first()?
                .decode(column: "n", as: Int.self)
                ?? 0
        }
        return LedgerReport(
            accounts: try await count("wallet_accounts"),
            entries: try await count("journal_entries"),
            problems: problems
        )
    }
}

extension PlazaServices {
    /// Ends pending charges past their expiry now (the background job does it every few seconds).
    public func expireCharges(now: Date = Date()) async throws {
        try await wallet.expireCharges(now: now)
    }

    /// The `Plaza-Gateway-Signature` the processor would send with `body` (for tests that play the processor).
    public func gatewaySignature(for body: Data, at time: Date = Date()) -> String {
        SandboxGateway.signature(secretKey: configuration.secretKey ?? "").sign(body, at: time)
    }
}
