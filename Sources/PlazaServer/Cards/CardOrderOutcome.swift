import Foundation
import PlazaCore
import SQLKit

/// How a card order ended, as `plaza bench chaos` compares it with the answers it was given: its status and how many
/// `card_order` and `card_refund` journal entries carry its id (one charge when paid, and one refund when then cancelled).
package struct CardOrderOutcome: Sendable, Hashable {
    package var status: CardOrderStatus
    package var charges: Int
    package var refunds: Int
}

extension CardsStore {
    /// The status of each order of `ids` that exists.
    func statuses(of ids: [UUID], on db: any SQLDatabase) async throws -> [UUID: CardOrderStatus] {
        var statuses: [UUID: CardOrderStatus] = [:]
        for chunk in ids.chunked(by: 500) {
            for row in try await db.select().columns("id", "status").from("card_orders").where("id", .in, chunk).all() {
                let status = CardOrderStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .cancelled
                statuses[try row.decode(column: "id", as: UUID.self)] = status
            }
        }
        return statuses
    }
}

extension PlazaServices {
    /// How each order of `ids` ended, with its money's journal entries (filed under the order's id).
    package func cardOrderOutcomes(_ ids: [UUID]) async throws -> [UUID: CardOrderOutcome] {
        let db = database.sql
        let statuses = try await CardsStore().statuses(of: ids, on: db)
        let charges = try await wallet.ledger.entryCounts(kind: "card_order", on: db)
        let refunds = try await wallet.ledger.entryCounts(kind: "card_refund", on: db)
        return statuses.reduce(into: [:]) { outcomes, pair in
            outcomes[pair.key] = CardOrderOutcome(
                status: pair.value,
                charges: charges[pair.key] ?? 0,
                refunds: refunds[pair.key] ?? 0
            )
        }
    }
}
