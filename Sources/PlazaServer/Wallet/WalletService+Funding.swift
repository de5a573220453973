import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

extension WalletService {
    /// Starts a top-up: recorded as pending, then sent to the processor; its webhook settles it.
    func topUp(_ identity: Identity, _ request: TopUpRequest, claim: IdempotencyClaim?, now: Date = Date()) async throws -> TopUp {
        guard gateway != nil else { throw PlazaError.paymentsUnavailable }
        let claim = try Self.require(claim)
        try identity.requireVerified()
        let problems =
            WalletRules.moneyProblems(amount: request.amount, currency: request.currency, accepted: configuration.currencies)
            + WalletRules.cardProblems(request.card, now: now)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let digits = request.card.number.filter(\.isNumber)
        let record = FundingRecord(
            user: identity.user.id, amount: request.amount, currency: request.currency, cardBrand: WalletRules.cardBrand(digits),
            cardLast4: String(digits.suffix(4)), createdAt: now, updatedAt: now)
        let topUp = record.topUp
        try await database.transaction { db in
            try await checkLimits(.topUp, record, accountCreated: identity.user.createdAt, now: now, on: db)
            try await funding.insert(record, .topUp, on: db)
            try await activity.insert([Self.activity(for: record, kind: .topUp, amount: record.amount)], on: db)
            try await idempotency.record(topUp, status: 201, claim: claim, on: db)
        }
        // After the commit: a crash here leaves a pending top-up the processor never saw; the sweeper asks again
        // with the same processor key (see `resendUnsent`).
        await send(record, card: request.card)
        return topUp
    }

    /// Starts a withdrawal: the money leaves the balance now and comes back if the payout fails.
    func withdraw(_ identity: Identity, _ request: WithdrawalRequest, claim: IdempotencyClaim?, now: Date = Date()) async throws -> Withdrawal {
        guard gateway != nil else { throw PlazaError.paymentsUnavailable }
        let claim = try Self.require(claim)
        try identity.requireVerified()
        let problems = WalletRules.moneyProblems(amount: request.amount, currency: request.currency, accepted: configuration.currencies)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        if let business = request.businessId { _ = try await places.requireMember(identity, of: business, owner: true) }
        let record = FundingRecord(
            user: identity.user.id, business: request.businessId, amount: request.amount, currency: request.currency, createdAt: now, updatedAt: now)
        let withdrawal = record.withdrawal
        try await database.transaction { db in
            try await checkLimits(.withdrawal, record, accountCreated: identity.user.createdAt, now: now, on: db)
            try await post(
                JournalEntry(
                    kind: "withdrawal", referenceId: record.id, currency: record.currency,
                    postings: [
                        Posting(owner: record.owner.id, kind: record.owner.kind, amount: -record.amount),
                        Posting(owner: SystemAccount.payoutsInTransit, kind: .system, amount: record.amount),
                    ], createdAt: now), on: db)
            try await funding.insert(record, .withdrawal, on: db)
            try await activity.insert([Self.activity(for: record, kind: .withdrawal, amount: -record.amount)], on: db)
            try await idempotency.record(withdrawal, status: 201, claim: claim, on: db)
        }
        await send(record, card: nil)
        return withdrawal
    }

    /// Refuses a top-up or withdrawal past the operator's limits (per transaction, calendar day and month in the
    /// operator's time zone; lower for new accounts), naming the limit, what is left and when it frees up. Checked
    /// in the transaction that records the money; two requests racing on PostgreSQL may both pass (a risk control,
    /// not a balance: the ledger's own checks stay exact).
    func checkLimits(_ direction: FundingRecord.Direction, _ record: FundingRecord, accountCreated: Date, now: Date, on db: any SQLDatabase)
        async throws
    {
        let limits = configuration.limits.limits(direction, accountCreated: accountCreated, now: now)
        var scale: Int64 = 1
        for _ in 0..<Money.minorUnitDigits(record.currency) { scale *= 10 }
        let (word, key) = direction == .topUp ? ("top up", "top_up") : ("withdraw", "withdrawal")
        func refuse(_ limit: String, _ title: String, detail: String, resetsAt: Date?) -> PlazaError {
            var error = PlazaError(.unprocessableContent, .limitExceeded, title, detail: detail, errors: [FieldError(field: "amount", message: title)])
            error.limit = "\(key)_\(limit)"
            error.resetsAt = resetsAt
            return error
        }
        let money = { (amount: Int64) in Money(amount: amount, currency: record.currency).description }
        if record.amount > limits.transaction * scale {
            throw refuse(
                "transaction", "You can \(word) at most \(money(limits.transaction * scale)) at a time.",
                detail: "Split it, or ask the operator about higher limits.", resetsAt: nil)
        }
        let calendar = places.configuration.calendar
        let owner = record.owner
        for (period, cap, component) in [("day", limits.day, Calendar.Component.day), ("month", limits.month, .month)] {
            guard let window = calendar.dateInterval(of: component, for: now) else { continue }
            let used = try await funding.total(direction, owner: owner.id, business: owner.kind == .business, currency: record.currency, since: window.start, on: db)
            guard used + record.amount > cap * scale else { continue }
            let left = max(0, cap * scale - used)
            let resets = window.end.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: calendar.timeZone))
            throw refuse(
                period, "You can \(word) \(money(left)) more this \(period).",
                detail: "The limit is \(money(cap * scale)) a \(period); it resets on \(resets).", resetsAt: window.end)
        }
    }

    /// The caller's own top-up or withdrawal (others' are "not found").
    func funding(_ identity: Identity, id: UUID, _ direction: FundingRecord.Direction) async throws -> FundingRecord {
        guard let record = try await funding.find(id, direction, on: database.sql), record.user == identity.user.id else {
            throw PlazaError.notFound(direction == .topUp ? "top-up" : "withdrawal")
        }
        return record
    }

    /// Hands a recorded top-up (with its card) or withdrawal to the processor, keyed by our id so that asking twice is harmless.
    func send(_ record: FundingRecord, card: CardDetails?) async {
        guard let gateway else { return }
        do {
            let gatewayId: String
            if let card {
                gatewayId = try await gateway.authorize(
                    amount: record.amount, currency: record.currency, card: card, reference: record.id, idempotencyKey: "top-up-\(record.id)")
            } else {
                gatewayId = try await gateway.payout(amount: record.amount, currency: record.currency, reference: record.id, idempotencyKey: "withdrawal-\(record.id)")
            }
            try await funding.setGatewayId(gatewayId, for: record.id, card == nil ? .withdrawal : .topUp, on: database.sql)
        } catch {
            logger.warning("processor call failed", metadata: ["reference": "\(record.id)", "error": "\(error)"])
        }
    }

    /// Withdrawals the processor never received (the process stopped after recording them) are sent again.
    /// A top-up's card is never stored, so one the processor never confirmed receiving fails after ten minutes and
    /// the user tries again; should its capture arrive later after all, it still succeeds (see `handle`).
    func resendUnsent(now: Date = Date()) async throws {
        for record in try await funding.unsent(.withdrawal, before: now.addingTimeInterval(-30), limit: 50, on: database.sql) {
            await send(record, card: nil)
        }
        for record in try await funding.unsent(.topUp, before: now.addingTimeInterval(-600), limit: 50, on: database.sql) {
            try await settleTopUp(record.id, succeeded: false, failureCode: Self.processingError, now: now)
        }
    }

    /// The failure code of a top-up the processor never confirmed receiving.
    static let processingError = "processing_error"

    /// A verified webhook from the processor. Repeats are harmless: each outcome applies to a pending record once.
    func handle(_ event: GatewayEvent, now: Date = Date()) async throws {
        let reference = event.data.reference
        switch event.type {
        case "payment.authorized":
            do {
                try await gateway?.capture(paymentId: event.data.id, idempotencyKey: "capture-\(reference)")
            } catch let error as GatewayError {
                // Nothing to capture (a payment the processor no longer knows): retrying the webhook would not help.
                logger.warning("capture refused", metadata: ["reference": "\(reference)", "error": "\(error)"])
            }
        case "payment.captured":
            try await settleTopUp(reference, succeeded: true, failureCode: nil, now: now)
        case "payment.failed":
            try await settleTopUp(reference, succeeded: false, failureCode: event.data.failureCode ?? "card_declined", now: now)
        case "payout.paid", "payout.failed":
            try await settleWithdrawal(reference, paid: event.type == "payout.paid", failureCode: event.data.failureCode, now: now)
        default:
            logger.debug("webhook ignored", metadata: ["type": "\(event.type)"])
        }
    }

    private func settleTopUp(_ id: UUID, succeeded: Bool, failureCode: String?, now: Date) async throws {
        try await places.withFeed { db in
            // A capture is money taken from the card: it credits the wallet even if the sweeper had given up on it.
            guard
                let record = try await funding.settle(
                    id, .topUp, status: succeeded ? .succeeded : .failed, failureCode: failureCode, overruling: succeeded, now: now, on: db)
            else { return ((), []) }
            if succeeded {
                try await ledger.post(
                    JournalEntry(
                        kind: "top_up", referenceId: record.id, currency: record.currency,
                        postings: [
                            Posting(owner: SystemAccount.gatewayClearing, kind: .system, amount: -record.amount),
                            Posting(owner: record.user, kind: .user, amount: record.amount),
                        ], createdAt: now), on: db)
            }
            try await activity.setStatus(record.status, failureCode: record.failureCode, reference: record.id, on: db)
            return ((), [.event(audience: [record.user], event: try Self.event(WalletEventType.topUpUpdated, record.topUp, at: now))])
        }
    }

    private func settleWithdrawal(_ id: UUID, paid: Bool, failureCode: String?, now: Date) async throws {
        try await places.withFeed { db in
            guard let record = try await funding.settle(id, .withdrawal, status: paid ? .succeeded : .failed, failureCode: failureCode, now: now, on: db)
            else { return ((), []) }
            // Paid: the money has left for the bank (back to the clearing mirror). Failed: it returns to the wallet.
            try await ledger.post(
                JournalEntry(
                    kind: paid ? "withdrawal_paid" : "withdrawal_reversal", referenceId: record.id, currency: record.currency,
                    postings: [
                        Posting(owner: SystemAccount.payoutsInTransit, kind: .system, amount: -record.amount),
                        paid
                            ? Posting(owner: SystemAccount.gatewayClearing, kind: .system, amount: record.amount)
                            : Posting(owner: record.owner.id, kind: record.owner.kind, amount: record.amount),
                    ], createdAt: now), on: db)
            try await activity.setStatus(record.status, failureCode: record.failureCode, reference: record.id, on: db)
            return ((), [.event(audience: [record.user], event: try Self.event(WalletEventType.withdrawalUpdated, record.withdrawal, at: now))])
        }
    }

    static func activity(for record: FundingRecord, kind: ActivityKind, amount: Int64) -> ActivityRecord {
        let name = record.cardLast4.map { "\(record.cardBrand?.capitalized ?? "Card") •••• \($0)" } ?? "Bank account"
        return ActivityRecord(
            owner: record.owner.id, kind: kind, amount: amount, currency: record.currency, status: record.status, counterpart: Party(kind: .plaza, name: name),
            note: nil, referenceId: record.id, createdAt: record.createdAt)
    }
}
