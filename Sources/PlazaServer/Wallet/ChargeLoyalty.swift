import Foundation
import PlazaCore
import SQLKit

/// What the wallet asks of loyalty when a shop's charge is paid or refunded: the loyalty domain answers it
/// (`LoyaltyPaymentPunches`, wired in `PlazaServices`), so that the wallet knows no program and loyalty touches no
/// ledger. `earn` and `refunded` run inside the charge's own transaction: the punches and the payment commit together.
protocol ChargeLoyalty: Sendable {
    /// The charge was paid: punches the payer's cards of the business's programs that earn on payment, and says what
    /// each earned, with the messages to publish (the cards' live events, an alert for a filled card). `spent` is what
    /// counts: what was paid, less any tip.
    func earn(
        charge: UUID,
        customer: UUID,
        business: UUID,
        spent: Money,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (earned: [LoyaltyEarned], messages: [FeedMessage])

    /// Some or all of a paid charge went back and `kept` stays paid: takes back the punches the kept amount no longer
    /// earns, unless the card was redeemed (or its next card collects already).
    func refunded(
        charge: UUID,
        customer: UUID,
        kept: Money,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage]

    /// What paid charges earned, by charge (net of what refunds took back).
    func earned(charges: [UUID], on db: any SQLDatabase) async throws -> [UUID: [LoyaltyEarned]]

    /// After the charge's transaction committed: the changed cards' wallet passes are refreshed.
    func committed(cards: [UUID]) async
}
