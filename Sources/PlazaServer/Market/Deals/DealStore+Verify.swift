import Foundation
import PlazaCore
import SQLKit

/// Deals' part of `plaza verify`: held money only on accepted offers, and what the hold account must hold.
extension DealStore {
    /// `escrow_held`: a payment still held on an offer that is no longer accepted (cancelled, declined, completed, or
    /// back to pending or countered) is money nobody will release or refund.
    func strayHolds(on db: any SQLDatabase) async throws -> [VerifyFinding] {
        let rows = try await db.select().columns("id", "state", "payment_amount", "currency").from("market_offers")
            .where("payment_state", .equal, DealPaymentState.held.rawValue).where(
                "state",
                .notEqual,
                PriceOfferState.accepted.rawValue
            ).all()
        return try rows.map { row in
            let amount = try row.decode(column: "payment_amount", as: Int64?.self) ?? 0
            let money = VerifyFinding.money(amount, try row.decode(column: "currency", as: String.self))
            return VerifyFinding(
                .escrowHeld,
                try row.decode(column: "id", as: UUID.self),
                "payment held on a \(try row.decode(column: "state", as: String.self)) offer, \(money)"
            )
        }
    }

    /// The sum of the held payments per currency (`heldTotal` for every currency at once).
    func heldTotals(on db: any SQLDatabase) async throws -> [String: Int64] {
        let rows = try await db.select().column("currency").column(
            SQLRaw("CAST(COALESCE(SUM(payment_amount), 0) AS BIGINT)"),
            as: "total"
        )
        .from("market_offers").where("payment_state", .equal, DealPaymentState.held.rawValue).groupBy("currency").all()
        var totals: [String: Int64] = [:]
        for row in rows {
            totals[try row.decode(column: "currency", as: String.self)] = try row.decode(
                column: "total",
                as: Int64.self
            )
        }
        return totals
    }

    /// The payments `buyers` made (held, released or refunded), for the answers of the pay route: buyer, amount, currency.
    func payments(buyers: [UUID], on db: any SQLDatabase) async throws -> Set<PaymentMade> {
        var made: Set<PaymentMade> = []
        for chunk in buyers.chunked(by: 500) {
            let rows = try await db.select().columns("buyer_id", "payment_amount", "currency").from("market_offers")
                .where("payment_state", .isNot, SQLLiteral.null).where("buyer_id", .in, chunk).all()
            for row in rows {
                made.insert(
                    PaymentMade(
                        buyer: try row.decode(column: "buyer_id", as: UUID.self),
                        amount: try row.decode(column: "payment_amount", as: Int64.self),
                        currency: try row.decode(column: "currency", as: String.self)
                    )
                )
            }
        }
        return made
    }

    /// A market payment as the pay route answers it (its answer names no offer): who paid, how much.
    struct PaymentMade: Hashable, Sendable {
        var buyer: UUID
        var amount: Int64
        var currency: String
    }
}
