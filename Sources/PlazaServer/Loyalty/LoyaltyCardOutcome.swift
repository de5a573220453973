import Foundation
import PlazaCore
import SQLKit

/// How a loyalty card ended, as `plaza bench chaos` compares it with the answers it was given: its state, its punch
/// count and the punches and redemptions stored for it.
package struct LoyaltyCardOutcome: Sendable {
    package var state: LoyaltyCardState
    package var punches: Int
    package var punchRows: Int
    package var redemptions: Int
}

extension LoyaltyStore {
    /// Each card of `ids` that exists, with its stored punches and redemptions.
    func outcomes(cards ids: [UUID], on db: any SQLDatabase) async throws -> [UUID: LoyaltyCardOutcome] {
        var outcomes: [UUID: LoyaltyCardOutcome] = [:]
        for id in ids {
            guard let card = try await card(id, on: db) else { continue }
            let count = { (table: String) async throws -> Int in
                try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table).where(
                    "card_id",
                    .equal,
                    id
                )
                .first()?.decode(column: "n", as: Int.self) ?? 0
            }
            outcomes[id] = LoyaltyCardOutcome(
                state: card.state,
                punches: card.punches,
                punchRows: try await count("loyalty_punches"),
                redemptions: try await count("loyalty_redemptions")
            )
        }
        return outcomes
    }
}

extension PlazaServices {
    /// How each loyalty card of `ids` ended.
    package func loyaltyCardOutcomes(_ ids: [UUID]) async throws -> [UUID: LoyaltyCardOutcome] {
        try await LoyaltyStore().outcomes(cards: ids, on: database.sql)
    }
}
