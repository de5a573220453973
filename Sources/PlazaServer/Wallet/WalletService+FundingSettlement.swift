import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

/// How top-ups and withdrawals end: handed to the processor, its answers and webhooks heard, the ledger settled.
extension WalletService {
    /// Hands a recorded top-up (with its card) or withdrawal to the processor, keyed by our id so that asking twice is
    /// harmless. A withdrawal the processor refuses outright (not "try later") fails at once and its money returns.
    func send(_ record: FundingRecord, card: CardDetails?) async {
        guard let gateway else { return }
        let direction: FundingRecord.Direction = card == nil ? .withdrawal : .topUp
        do {
            let gatewayId: String
            if let card {
                gatewayId = try await gateway.startPayment(
                    PaymentStart(
                        reference: record.id,
                        amount: record.amount,
                        currency: record.currency,
                        card: card,
                        successURL: "",
                        cancelURL: ""
                    ),
                    idempotencyKey: "top-up-\(record.id)"
                ).id
            } else {
                // The payout account of whoever asked (a business's owner for a business's withdrawal).
                let destination = try await payoutAccounts.find(user: record.user, on: database.sql)?.accountId
                let result = try await gateway.payout(
                    amount: record.amount,
                    currency: record.currency,
                    reference: record.id,
                    destination: destination,
                    idempotencyKey: "withdrawal-\(record.id)"
                )
                gatewayId = result.id
                if result.paid {
                    try await funding.setGatewayId(gatewayId, for: record.id, direction, on: database.sql)
                    try await settleWithdrawal(record.id, paid: true, failureCode: nil, now: Date())
                    return
                }
            }
            try await funding.setGatewayId(gatewayId, for: record.id, direction, on: database.sql)
        } catch let error as GatewayError where error.refusal != nil && direction == .withdrawal {
            logger.warning("payout refused", metadata: ["reference": "\(record.id)", "error": "\(error)"])
            try? await settleWithdrawal(record.id, paid: false, failureCode: error.refusal, now: Date())
        } catch {
            logger.warning("processor call failed", metadata: ["reference": "\(record.id)", "error": "\(error)"])
        }
    }

    /// Withdrawals the processor never received (the process stopped after recording them) are sent again.
    /// A top-up's card is never stored, so one the processor never confirmed receiving fails after ten minutes and
    /// the user tries again; should its capture arrive later after all, it still succeeds (see `handle`).
    func resendUnsent(now: Date = Date()) async throws {
        for record in try await funding.unsent(
            .withdrawal,
            before: now.addingTimeInterval(-30),
            limit: 50,
            on: database.sql
        ) {
            await send(record, card: nil)
        }
        for record in try await funding.unsent(
            .topUp,
            before: now.addingTimeInterval(-600),
            limit: 50,
            on: database.sql
        ) {
            try await settleTopUp(record.id, succeeded: false, failureCode: Self.processingError, now: now)
        }
        try await reconcileOverdue(now: now)
    }

    /// Top-ups on a hosted page that should have ended by now but whose webhook never came (an endpoint set up wrong,
    /// an outage longer than the processor's retries): the processor is asked, at most every ten minutes per top-up.
    func reconcileOverdue(now: Date = Date()) async throws {
        guard let gateway, gateway.cardEntry == .hostedPage else { return }
        let overdue = try await funding.overdueHosted(
            createdBefore: now.addingTimeInterval(-StripeGateway.checkoutLifetime - 300),
            askedBefore: now.addingTimeInterval(-600),
            limit: 20,
            now: now,
            on: database.sql
        )
        for record in overdue {
            guard let id = record.gatewayId else { continue }
            do {
                if let outcome = try await gateway.outcome(ofPayment: id, reference: record.id) {
                    try await handle(outcome, now: now)
                }
            } catch let error as GatewayError {
                logger.warning("processor call failed", metadata: ["reference": "\(record.id)", "error": "\(error)"])
            }
        }
    }

    /// The failure code of a top-up the processor never confirmed receiving.
    static let processingError = "processing_error"

    /// A webhook posted to `/v1/webhooks/<name>`: checked and read by the processor that posts there, then applied.
    /// Repeats are harmless: each outcome applies to a pending record once. Another processor's endpoint has no secret
    /// to check against, so nothing posted there is ever valid (401, as for a wrong signature).
    func webhook(_ name: String, body: Data, headers: HTTPFields, now: Date = Date()) async throws {
        guard let gateway, gateway.webhookName == name else { throw PlazaError.badWebhookSignature }
        for outcome in try gateway.outcomes(ofWebhook: body, headers: headers, now: now) {
            try await handle(outcome, now: now)
        }
    }

    func handle(_ outcome: GatewayOutcome, now: Date = Date()) async throws {
        switch outcome {
        case .paymentAuthorized(let paymentId, let reference):
            do {
                try await gateway?.capture(paymentId: paymentId, idempotencyKey: "capture-\(reference)")
            } catch let error as GatewayError {
                // Nothing to capture (a payment the processor no longer knows): retrying the webhook would not help.
                logger.warning("capture refused", metadata: ["reference": "\(reference)", "error": "\(error)"])
            }
        case .paymentCaptured(let reference):
            try await settleTopUp(reference, succeeded: true, failureCode: nil, now: now)
        case .paymentFailed(let reference, let code):
            try await settleTopUp(reference, succeeded: false, failureCode: code, now: now)
        case .paymentAttemptFailed(let reference, let code):
            try await funding.noteAttemptFailure(reference, code: code, on: database.sql)
        case .payoutPaid(let reference):
            try await settleWithdrawal(reference, paid: true, failureCode: nil, now: now)
        case .payoutFailed(let reference, let code):
            try await settleWithdrawal(reference, paid: false, failureCode: code, now: now)
        case .payoutAccountUpdated(let account, let ready):
            try await payoutAccounts.setReady(accountId: account, ready, now: now, on: database.sql)
        }
    }

    func settleTopUp(_ id: UUID, succeeded: Bool, failureCode: String?, now: Date) async throws {
        try await events.transaction { db in
            // A capture is money taken from the card: it credits the wallet even if the sweeper had given up on it.
            guard
                let record = try await funding.settle(
                    id,
                    .topUp,
                    status: succeeded ? .succeeded : .failed,
                    failureCode: failureCode,
                    fallbackCode: "expired",
                    overruling: succeeded,
                    now: now,
                    on: db
                )
            else { return ((), []) }
            if succeeded {
                try await ledger.post(
                    JournalEntry(
                        kind: "top_up",
                        referenceId: record.id,
                        currency: record.currency,
                        postings: [
                            Posting(owner: SystemAccount.gatewayClearing, kind: .system, amount: -record.amount),
                            Posting(owner: record.user, kind: .user, amount: record.amount),
                        ],
                        createdAt: now
                    ),
                    on: db
                )
            }
            try await activity.setStatus(record.status, failureCode: record.failureCode, reference: record.id, on: db)
            return (
                (),
                [
                    .event(
                        audience: [record.user],
                        event: try Self.event(WalletEventType.topUpUpdated, record.topUp, at: now)
                    ),
                    .topUpSettled(
                        user: record.user,
                        reference: record.id,
                        succeeded: succeeded,
                        failure: succeeded ? nil : WalletRules.failureReason(record.failureCode)
                    ),
                ]
            )
        }
    }

    private func settleWithdrawal(_ id: UUID, paid: Bool, failureCode: String?, now: Date) async throws {
        try await events.transaction { db in
            guard
                let record = try await funding.settle(
                    id,
                    .withdrawal,
                    status: paid ? .succeeded : .failed,
                    failureCode: failureCode,
                    now: now,
                    on: db
                )
            else { return ((), []) }
            // Paid: the money has left for the bank (back to the clearing mirror). Failed: it returns to the wallet.
            try await ledger.post(
                JournalEntry(
                    kind: paid ? "withdrawal_paid" : "withdrawal_reversal",
                    referenceId: record.id,
                    currency: record.currency,
                    postings: [
                        Posting(owner: SystemAccount.payoutsInTransit, kind: .system, amount: -record.amount),
                        paid
                            ? Posting(owner: SystemAccount.gatewayClearing, kind: .system, amount: record.amount)
                            : Posting(owner: record.owner.id, kind: record.owner.kind, amount: record.amount),
                    ],
                    createdAt: now
                ),
                on: db
            )
            try await activity.setStatus(record.status, failureCode: record.failureCode, reference: record.id, on: db)
            return (
                (),
                [
                    .event(
                        audience: [record.user],
                        event: try Self.event(WalletEventType.withdrawalUpdated, record.withdrawal, at: now)
                    )
                ]
            )
        }
    }

    package static func activity(for record: FundingRecord, kind: ActivityKind, amount: Int64) -> ActivityRecord {
        let name =
            switch (kind, record.cardLast4) {
            case (.topUp, let last4?): "\(record.cardBrand?.capitalized ?? "Card") •••• \(last4)"
            case (.topUp, nil): "Card"
            default: "Bank account"
            }
        return ActivityRecord(
            owner: record.owner.id,
            kind: kind,
            amount: amount,
            currency: record.currency,
            status: record.status,
            counterpart: Party(kind: .plaza, name: name),
            note: nil,
            referenceId: record.id,
            createdAt: record.createdAt
        )
    }
}
