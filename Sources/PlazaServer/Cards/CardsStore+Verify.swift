import Foundation
import PlazaCore
import SQLKit

/// The card shop's part of `plaza verify`: every order's money in the ledger matches its status.
extension CardsStore {
    /// `card_order_payment`: a paid order (paid, in production, shipped; total above zero) has exactly one `card_order`
    /// journal entry of its total and no `card_refund`; a cancelled order that was paid has one of each, both of its
    /// total; an order never paid has neither; and no such entry names an order that does not exist. One query: the
    /// entries summed per order and kind, only the broken orders come back.
    func paymentFindings(on db: any SQLDatabase) async throws -> [VerifyFinding] {
        let paid = [CardOrderStatus.paid, .inProduction, .shipped].map(\.rawValue)
        let cancelled = CardOrderStatus.cancelled.rawValue
        let rows = try await db.raw(
            """
            SELECT o.id, o.status, o.total, o.currency, o.paid_at, c.n AS charges, c.low AS charged_low, c.high AS charged_high,
              r.n AS refunds, r.low AS refunded_low, r.high AS refunded_high
            FROM card_orders o
            LEFT JOIN (\(Self.entries("card_order"))) c ON c.reference_id = o.id
            LEFT JOIN (\(Self.entries("card_refund"))) r ON r.reference_id = o.id
            WHERE (o.status IN (\(binds: paid)) AND o.total > 0 AND (c.n IS NULL OR c.n <> 1 OR c.low <> o.total OR c.high <> o.total
                OR r.n IS NOT NULL))
              OR (o.status = \(bind: cancelled) AND o.paid_at IS NOT NULL AND o.total > 0 AND (c.n IS NULL OR c.n <> 1 OR r.n IS NULL
                OR r.n <> 1 OR c.low <> o.total OR c.high <> o.total OR r.low <> o.total OR r.high <> o.total))
              OR ((o.status NOT IN (\(binds: paid + [cancelled])) OR (o.status = \(bind: cancelled) AND o.paid_at IS NULL))
                AND (c.n IS NOT NULL OR r.n IS NOT NULL))
            """
        ).all()
        var found = try rows.map(Self.finding)
        let orphans = try await db.raw(
            """
            SELECT j.reference_id, j.kind FROM journal_entries j WHERE j.kind IN ('card_order', 'card_refund')
            AND NOT EXISTS (SELECT 1 FROM card_orders o WHERE o.id = j.reference_id)
            """
        ).all()
        for row in orphans {
            found.append(
                VerifyFinding(
                    .cardOrderPayment,
                    try row.decode(column: "reference_id", as: UUID.self),
                    "a \(try row.decode(column: "kind", as: String.self)) journal entry names no card order"
                )
            )
        }
        return found
    }

    /// The journal entries of `kind` per order: how many, and the least and most one moved (the sum of its credits).
    private static func entries(_ kind: String) -> SQLQueryString {
        """
        SELECT e.reference_id, COUNT(*) AS n, MIN(e.amount) AS low, MAX(e.amount) AS high FROM (
          SELECT j.id, j.reference_id, CAST(COALESCE(SUM(p.amount), 0) AS BIGINT) AS amount FROM journal_entries j
          JOIN postings p ON p.entry_id = j.id AND p.amount > 0 WHERE j.kind = \(bind: kind) GROUP BY j.id, j.reference_id) e
        GROUP BY e.reference_id
        """
    }

    /// Says what is wrong with an order the query flagged.
    private static func finding(_ row: any SQLRow) throws -> VerifyFinding {
        let status = try row.decode(column: "status", as: String.self)
        let total = VerifyFinding.money(
            try row.decode(column: "total", as: Int64.self),
            try row.decode(column: "currency", as: String.self)
        )
        let charges = try row.decode(column: "charges", as: Int?.self) ?? 0
        let refunds = try row.decode(column: "refunds", as: Int?.self) ?? 0
        let paidAt = try row.decode(column: "paid_at", as: Date?.self)
        let amounts = [
            try row.decode(column: "charged_low", as: Int64?.self),
            try row.decode(column: "charged_high", as: Int64?.self),
            try row.decode(column: "refunded_low", as: Int64?.self),
            try row.decode(column: "refunded_high", as: Int64?.self),
        ].compactMap { $0 }
        let paidState =
            status == CardOrderStatus.cancelled.rawValue
            ? (paidAt == nil ? "cancelled unpaid" : "cancelled after payment") : status
        var message = "\(paidState) order of \(total) has \(charges) card_order and \(refunds) card_refund entries"
        if charges + refunds > 0 {
            message += " (amounts \(Set(amounts).sorted().map { String($0) }.joined(separator: ", ")))"
        }
        return VerifyFinding(.cardOrderPayment, try row.decode(column: "id", as: UUID.self), message)
    }

    /// The totals of the orders `ids` (those that exist), for the answers of the order routes.
    func totals(of ids: [UUID], on db: any SQLDatabase) async throws -> [UUID: Int64] {
        var totals: [UUID: Int64] = [:]
        for chunk in ids.chunked(by: 500) {
            for row in try await db.select().columns("id", "total").from("card_orders").where("id", .in, chunk).all() {
                totals[try row.decode(column: "id", as: UUID.self)] = try row.decode(column: "total", as: Int64.self)
            }
        }
        return totals
    }
}
