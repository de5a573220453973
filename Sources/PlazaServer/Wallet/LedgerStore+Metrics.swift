import Foundation
import SQLKit

extension LedgerStore {
    /// Money moved by every committed journal entry, by kind and currency: the sum of its postings into accounts
    /// (a transfer of 5 moved 5). The whole ledger each time (`plaza_money_moved_minor_total` counts the increase).
    func movedTotals(on db: any SQLDatabase) async throws -> [DomainMetrics.MoneyKey: Int64] {
        let kind = SQLColumn("kind", table: "journal_entries")
        let currency = SQLColumn("currency", table: "postings")
        let entry = (SQLColumn("entry_id", table: "postings"), SQLColumn("id", table: "journal_entries"))
        let rows = try await db.select()
            .column(kind, as: "kind")
            .column(currency, as: "currency")
            .column(SQLRaw("CAST(SUM(postings.amount) AS BIGINT)"), as: "moved")
            .from("postings")
            .join("journal_entries", on: entry.0, .equal, entry.1)
            .where(SQLColumn("amount", table: "postings"), .greaterThan, SQLLiteral.numeric("0"))
            .groupBy(kind)
            .groupBy(currency)
            .all()
        var totals: [DomainMetrics.MoneyKey: Int64] = [:]
        for row in rows {
            let key = DomainMetrics.MoneyKey(
                kind: try row.decode(column: "kind", as: String.self),
                currency: try row.decode(column: "currency", as: String.self)
            )
            totals[key] = try row.decode(column: "moved", as: Int64.self)
        }
        return totals
    }
}
