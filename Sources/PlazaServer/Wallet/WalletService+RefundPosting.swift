import Foundation
import PlazaCore
import SQLKit

extension WalletService {
    /// Gives `amount` of what is left of `current` back to its customer, inside the caller's transaction: the charge's
    /// refunded total (a conditional update: never past the amount paid), the journal, both histories, the refund
    /// with the reason the customer reads, and the loyalty punches taken back. The one refund path: a business's
    /// refund and a payment dispute's come here.
    func postRefund(
        _ current: ChargeRecord,
        amount: Int64,
        reason: String?,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (Charge, [FeedMessage]) {
        guard let charge = try await charges.refund(current.id, amount: amount, on: db) else {
            throw PlazaError.validation(
                field: "amount",
                say(
                    "At most {amount} is left to refund.",
                    [
                        "amount": sayAmount(
                            Money(amount: current.amount - current.refundedAmount, currency: current.currency)
                        )
                    ]
                )
            )
        }
        try await post(
            JournalEntry(
                id: UUID(),
                kind: "refund",
                referenceId: charge.id,
                currency: charge.currency,
                postings: [
                    Posting(owner: charge.businessId, kind: .business, amount: -amount),
                    Posting(owner: charge.customerId, kind: .user, amount: amount),
                ],
                createdAt: now
            ),
            on: db
        )
        var entries = Self.chargeActivity(charge, kind: .refund, amount: -amount, at: now)
        // The customer's line says why, when the business said.
        if let reason { entries[0].note = reason }
        try await activity.insert(entries, on: db)
        let refund = ChargeRefund(id: UUID(), amount: amount, reason: reason, createdAt: now)
        try await charges.insert(refund, charge: charge.id, on: db)
        var taken: [FeedMessage] = []
        if !charge.isPaymentRequest, let loyalty {
            taken = try await loyalty.refunded(
                charge: charge.id,
                customer: charge.customerId,
                kept: Money(amount: charge.amount - charge.refundedAmount, currency: charge.currency),
                now: now,
                on: db
            )
        }
        var dto = charge.dto(now: now)
        dto.loyalty = try await loyalty?.earned(charges: [charge.id], on: db)[charge.id] ?? []
        dto.refunds = try await charges.refunds(charges: [charge.id], on: db)[charge.id] ?? []
        return (dto, try await chargeEvent(WalletEventType.charge(.refunded), charge, now: now, on: db) + taken)
    }
}
