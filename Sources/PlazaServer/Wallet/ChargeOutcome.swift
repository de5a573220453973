import Foundation
import PlazaCore
import SQLKit

/// How a charge ended, as `plaza bench chaos` compares it with the answers it was given: its status and amounts, and
/// how many `charge` and `refund` journal entries carry its id (one payment when approved; one per refund).
package struct ChargeOutcome: Sendable, Hashable {
    package var status: ChargeStatus
    package var amount: Int64
    package var refundedAmount: Int64
    package var payments: Int
    package var refunds: Int
}

extension PlazaServices {
    /// How each charge of `ids` that exists ended, with its money's journal entries.
    package func chargeOutcomes(_ ids: [UUID]) async throws -> [UUID: ChargeOutcome] {
        let db = database.sql
        let payments = try await wallet.ledger.entryCounts(kind: "charge", on: db)
        let refunds = try await wallet.ledger.entryCounts(kind: "refund", on: db)
        var outcomes: [UUID: ChargeOutcome] = [:]
        for id in ids {
            guard let charge = try await wallet.charges.find(id, on: db) else { continue }
            outcomes[id] = ChargeOutcome(
                status: charge.status,
                amount: charge.amount,
                refundedAmount: charge.refundedAmount,
                payments: payments[id] ?? 0,
                refunds: refunds[id] ?? 0
            )
        }
        return outcomes
    }
}
