import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

extension WalletService {
    /// Starts a top-up: recorded as pending, then sent to the processor; its webhook settles it. Where the processor
    /// takes the card on its own page, the page is opened first and the answer's `checkoutUrl` leads there.
    func topUp(
        _ identity: Identity,
        _ request: TopUpRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> TopUp {
        guard let gateway else { throw PlazaError.paymentsUnavailable }
        let claim = try Self.require(claim)
        try identity.requireVerified()
        var problems = WalletRules.moneyProblems(
            amount: request.amount,
            currency: request.currency,
            accepted: configuration.currencies
        )
        switch (gateway.cardEntry, request.card) {
        case (.plazaForm, let card?): problems += WalletRules.cardProblems(card, now: now)
        case (.plazaForm, nil):
            problems.append(
                FieldError(field: "card", message: phrase("Give the card's number, expiry date and security code."))
            )
        case (.hostedPage, nil): break
        case (.hostedPage, _?):
            problems.append(
                FieldError(
                    field: "card",
                    message:
                        "This Plaza takes cards only on its processor's secure page: leave card out and open checkoutUrl."
                )
            )
        }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let digits = request.card?.number.filter(\.isNumber)
        var record = FundingRecord(
            user: identity.user.id,
            amount: request.amount,
            currency: request.currency,
            cardBrand: digits.map(WalletRules.cardBrand),
            cardLast4: digits.map { String($0.suffix(4)) },
            createdAt: now,
            updatedAt: now
        )
        if gateway.cardEntry == .hostedPage {
            // Refused over a limit before a page is opened; checked again below with the record.
            try await database.transaction { [record] db in
                try await checkLimits(.topUp, record, accountCreated: identity.user.createdAt, now: now, on: db)
            }
            let id = record.id.uuidString.lowercased()
            let start = PaymentStart(
                reference: record.id,
                amount: record.amount,
                currency: record.currency,
                email: identity.user.email,
                successURL: "\(baseURL)/wallet/activity/\(id)?notice=top-up-paid",
                cancelURL: "\(baseURL)/wallet/top-ups/\(id)/cancel"
            )
            let started = try await askProcessor(about: record.id) {
                try await gateway.startPayment(start, idempotencyKey: "top-up-\(start.reference)")
            }
            (record.gatewayId, record.checkoutURL) = (started.id, started.checkoutURL)
        }
        let topUp = record.topUp
        try await database.transaction { [record] db in
            try await checkLimits(.topUp, record, accountCreated: identity.user.createdAt, now: now, on: db)
            try await funding.insert(record, .topUp, on: db)
            try await activity.insert([Self.activity(for: record, kind: .topUp, amount: record.amount)], on: db)
            try await idempotency.record(topUp, status: 201, claim: claim, on: db)
        }
        // After the commit: a crash here leaves a pending top-up the processor never saw; the sweeper asks again
        // with the same processor key (see `resendUnsent`).
        if let card = request.card { await send(record, card: card) }
        return topUp
    }

    /// The customer came back from the processor's page without paying: the page is closed and the top-up fails
    /// as `cancelled` (unless it was paid after all: then its webhook settles it).
    func cancelTopUp(_ identity: Identity, id: UUID, now: Date = Date()) async throws {
        let record = try await funding(identity, id: id, .topUp)
        guard record.status == .pending, let gateway, let gatewayId = record.gatewayId, record.checkoutURL != nil else {
            return
        }
        // Noted first: the processor's "expired" webhook may arrive before its answer, and then says why.
        try await funding.noteAttemptFailure(record.id, code: "cancelled", on: database.sql)
        guard try await askProcessor(about: record.id, { try await gateway.cancelPayment(id: gatewayId) }) else {
            return
        }
        try await settleTopUp(record.id, succeeded: false, failureCode: nil, now: now)
    }

    /// Starts a withdrawal: the money leaves the balance now and comes back if the payout fails.
    func withdraw(
        _ identity: Identity,
        _ request: WithdrawalRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> Withdrawal {
        guard gateway != nil else { throw PlazaError.paymentsUnavailable }
        let claim = try Self.require(claim)
        try identity.requireVerified()
        let problems = WalletRules.moneyProblems(
            amount: request.amount,
            currency: request.currency,
            accepted: configuration.currencies
        )
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        try await requireSecondFactor(identity, .withdrawal, now: now)
        if let business = request.businessId {
            _ = try await businesses.requireMember(identity, of: business, owner: true)
        }
        if gateway?.needsPayoutAccount == true,
            try await payoutAccounts.find(user: identity.user.id, on: database.sql)?.ready != true
        {
            throw PlazaError.payoutAccountRequired
        }
        let record = FundingRecord(
            user: identity.user.id,
            business: request.businessId,
            amount: request.amount,
            currency: request.currency,
            createdAt: now,
            updatedAt: now
        )
        let withdrawal = record.withdrawal
        try await database.transaction { db in
            try await checkLimits(.withdrawal, record, accountCreated: identity.user.createdAt, now: now, on: db)
            try await post(
                JournalEntry(
                    kind: "withdrawal",
                    referenceId: record.id,
                    currency: record.currency,
                    postings: [
                        Posting(owner: record.owner.id, kind: record.owner.kind, amount: -record.amount),
                        Posting(owner: SystemAccount.payoutsInTransit, kind: .system, amount: record.amount),
                    ],
                    createdAt: now
                ),
                on: db
            )
            try await funding.insert(record, .withdrawal, on: db)
            try await activity.insert([Self.activity(for: record, kind: .withdrawal, amount: -record.amount)], on: db)
            try await idempotency.record(withdrawal, status: 201, claim: claim, on: db)
        }
        await send(record, card: nil)
        return withdrawal
    }

    /// Where the caller's withdrawals go: nowhere to connect with the sandbox; with Stripe, their Connect account.
    func payoutAccount(_ identity: Identity) async throws -> PayoutAccount {
        guard gateway != nil else { throw PlazaError.paymentsUnavailable }
        return PayoutAccount(status: try await payoutStatus(user: identity.user.id, on: database.sql))
    }

    /// Whether `user`'s withdrawals can reach a bank (an admin reads it on a merchant's review item).
    func payoutStatus(user: UUID, on db: any SQLDatabase) async throws -> PayoutAccount.Status {
        guard let gateway, gateway.needsPayoutAccount else { return .notNeeded }
        guard let account = try await payoutAccounts.find(user: user, on: db) else { return .none }
        return account.ready ? .ready : .incomplete
    }

    /// The processor's page where the caller connects a bank account (opening their payout account the first time).
    func payoutOnboarding(_ identity: Identity, now: Date = Date()) async throws -> PayoutOnboarding {
        guard let gateway else { throw PlazaError.paymentsUnavailable }
        guard gateway.needsPayoutAccount else {
            throw PlazaError(
                .conflict,
                .conflict,
                phrase("No bank account to connect here."),
                detail: phrase("This Plaza pays withdrawals out without one.")
            )
        }
        try identity.requireVerified()
        try await requireSecondFactor(identity, .payoutAccount, now: now)
        let user = identity.user
        let account: String
        if let existing = try await payoutAccounts.find(user: user.id, on: database.sql) {
            account = existing.accountId
        } else {
            let created = try await askProcessor(about: user.id) {
                try await gateway.createPayoutAccount(
                    user: user.id,
                    email: user.email,
                    idempotencyKey: "payout-account-\(user.id)"
                )
            }
            try await payoutAccounts.insert(user: user.id, accountId: created, now: now, on: database.sql)
            // Two first clicks at once: both got the same account (same key); the row holds whichever came first.
            account = try await payoutAccounts.find(user: user.id, on: database.sql)?.accountId ?? created
        }
        let (back, again) = ("\(baseURL)/wallet/payout-account/return", "\(baseURL)/wallet/payout-account/refresh")
        let url = try await askProcessor(about: user.id) {
            try await gateway.payoutAccountLink(account: account, returnURL: back, refreshURL: again)
        }
        return PayoutOnboarding(url: url)
    }

    /// Back from the processor's page: asks it whether payouts can go there now (its webhook also says so).
    func refreshPayoutAccount(_ identity: Identity, now: Date = Date()) async throws -> PayoutAccount {
        guard let gateway, gateway.needsPayoutAccount,
            let account = try await payoutAccounts.find(user: identity.user.id, on: database.sql)
        else {
            return try await payoutAccount(identity)
        }
        let ready = try await askProcessor(about: identity.user.id) {
            try await gateway.payoutAccountReady(account: account.accountId)
        }
        try await payoutAccounts.setReady(accountId: account.accountId, ready, now: now, on: database.sql)
        return PayoutAccount(status: ready ? .ready : .incomplete)
    }

    /// A call to the processor on a person's behalf: a refusal or an outage is logged with `subject` and answered as
    /// 502 `gateway_error` (nothing was charged or moved).
    private func askProcessor<T: Sendable>(about subject: UUID, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as GatewayError {
            logger.warning("processor call failed", metadata: ["subject": "\(subject)", "error": "\(error)"])
            throw PlazaError.gatewayFailed
        }
    }

    /// Refuses a top-up or withdrawal past the operator's limits (per transaction, calendar day and month in the
    /// operator's time zone; lower for new accounts), naming the limit, what is left and when it frees up. Checked
    /// in the transaction that records the money; two requests racing on PostgreSQL may both pass (a risk control,
    /// not a balance: the ledger's own checks stay exact).
    func checkLimits(
        _ direction: FundingRecord.Direction,
        _ record: FundingRecord,
        accountCreated: Date,
        now: Date,
        on db: any SQLDatabase
    )
        async throws
    {
        let limits = configuration.limits.limits(direction, accountCreated: accountCreated, now: now)
        var scale: Int64 = 1
        for _ in 0..<Money.minorUnitDigits(record.currency) { scale *= 10 }
        let topUp = direction == .topUp
        let key = topUp ? "top_up" : "withdrawal"
        func refuse(_ limit: String, _ title: String, detail: String, resetsAt: Date?) -> PlazaError {
            var error = PlazaError(
                .unprocessableContent,
                .limitExceeded,
                title,
                detail: detail,
                errors: [FieldError(field: "amount", message: title)]
            )
            error.limit = "\(key)_\(limit)"
            error.resetsAt = resetsAt
            return error
        }
        let money = { (amount: Int64) in sayAmount(Money(amount: amount, currency: record.currency)) }
        if record.amount > limits.transaction * scale {
            let most = ["amount": money(limits.transaction * scale)]
            throw refuse(
                "transaction",
                topUp
                    ? say("You can top up at most {amount} at a time.", most)
                    : say("You can withdraw at most {amount} at a time.", most),
                detail: phrase("Split it, or ask the operator about higher limits."),
                resetsAt: nil
            )
        }
        let calendar = places.configuration.calendar
        let owner = record.owner
        for (period, cap, component) in [("day", limits.day, Calendar.Component.day), ("month", limits.month, .month)] {
            guard let window = calendar.dateInterval(of: component, for: now) else { continue }
            let used = try await funding.total(
                direction,
                owner: owner.id,
                business: owner.kind == .business,
                currency: record.currency,
                since: window.start,
                on: db
            )
            guard used + record.amount > cap * scale else { continue }
            let left = max(0, cap * scale - used)
            let resets = window.end.formatted(
                Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: calendar.timeZone).locale(sayLocale)
            )
            let values = ["amount": money(left), "limit": money(cap * scale), "date": resets]
            // A sentence for each way and period: "top up" and "a day" are words of the reader's language.
            let title =
                switch (topUp, period == "day") {
                case (true, true): say("You can top up {amount} more this day.", values)
                case (true, false): say("You can top up {amount} more this month.", values)
                case (false, true): say("You can withdraw {amount} more this day.", values)
                case (false, false): say("You can withdraw {amount} more this month.", values)
                }
            throw refuse(
                period,
                title,
                detail: period == "day"
                    ? say("The limit is {limit} a day; it resets on {date}.", values)
                    : say("The limit is {limit} a month; it resets on {date}.", values),
                resetsAt: window.end
            )
        }
    }

    /// The caller's own top-up or withdrawal (others' are "not found").
    func funding(_ identity: Identity, id: UUID, _ direction: FundingRecord.Direction) async throws -> FundingRecord {
        guard let record = try await funding.find(id, direction, on: database.sql), record.user == identity.user.id
        else {
            throw PlazaError.notFound(direction == .topUp ? "top-up" : "withdrawal")
        }
        return record
    }
}
