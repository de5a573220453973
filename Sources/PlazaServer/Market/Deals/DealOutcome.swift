import Foundation
import PlazaCore
import SQLKit

/// How a deal ended, as `plaza bench chaos` compares it with the answers it was given: the offer's state, its payment's
/// (nil: never paid), and how many journal entries held, released and refunded its money (at most one each, when sound).
package struct DealOutcome: Sendable, Hashable {
    package var state: PriceOfferState
    package var payment: DealPaymentState?
    package var holds: Int
    package var releases: Int
    package var refunds: Int
}

extension DealStore {
    /// The state and payment state of each offer of `ids` that exists.
    func states(of ids: [UUID], on db: any SQLDatabase) async throws -> [UUID: (PriceOfferState, DealPaymentState?)] {
        var states: [UUID: (PriceOfferState, DealPaymentState?)] = [:]
        for chunk in ids.chunked(by: 500) {
            for row in try await db.select().columns("id", "state", "payment_state").from("market_offers").where(
                "id",
                .in,
                chunk
            ).all() {
                let state = PriceOfferState(rawValue: try row.decode(column: "state", as: String.self)) ?? .cancelled
                let payment = try row.decode(column: "payment_state", as: String?.self).flatMap(
                    DealPaymentState.init(rawValue:)
                )
                states[try row.decode(column: "id", as: UUID.self)] = (state, payment)
            }
        }
        return states
    }
}

extension PlazaServices {
    /// How each offer of `ids` ended, with its money's journal entries (every movement of a deal is filed under its
    /// offer's id: `WalletMarketPayments`).
    package func dealOutcomes(_ ids: [UUID]) async throws -> [UUID: DealOutcome] {
        let db = database.sql
        let states = try await DealStore().states(of: ids, on: db)
        let holds = try await wallet.ledger.entryCounts(kind: "market_hold", on: db)
        let releases = try await wallet.ledger.entryCounts(kind: "market_release", on: db)
        let refunds = try await wallet.ledger.entryCounts(kind: "market_refund", on: db)
        return states.reduce(into: [:]) { outcomes, pair in
            let (id, (state, payment)) = pair
            outcomes[id] = DealOutcome(
                state: state,
                payment: payment,
                holds: holds[id] ?? 0,
                releases: releases[id] ?? 0,
                refunds: refunds[id] ?? 0
            )
        }
    }
}
