import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

/// The wallet rules: balances, transfers, top-ups, withdrawals and charges. Routes and pages call this; SQL is in the stores.
package struct WalletService: Sendable {
    let database: PlazaDatabase
    let configuration: WalletConfiguration
    /// Who may act for a business, and where it is.
    let businesses: BusinessesService
    /// Who is in a shop now.
    let places: PlacesService
    /// Money events (a charge asked, a top-up settled) go out here with the commit that made them.
    let events: EventBus
    let idempotency: IdempotencyStore
    /// Nil until the operator sets `PLAZA_PAYMENT_GATEWAY`: then top-ups and withdrawals are refused.
    let gateway: (any PaymentGateway)?
    let limiter: RateLimiter
    let secrets: Secrets
    let logger: Logger
    /// Where users reach Plaza: the processor's pages send them back here.
    let baseURL: String

    package let ledger = LedgerStore()
    package let activity = ActivityStore()
    package let funding = FundingStore()
    let payoutAccounts = PayoutAccountStore()
    let charges = ChargeStore()
    let accounts = AccountStore()
    /// One per process: transfers wait here for their batch.
    let transfers: TransferBatcher
    /// How transfer batches are written on this engine, chosen at start-up (`PlazaServices`).
    let transferWriter: any TransferWriter
    /// Coupons on charges (the offers domain's answer); none: a charge naming a coupon is refused.
    var coupons: (any ChargeCoupons)? = nil
    /// Punches for paying (the loyalty domain's answer); none: paying earns nothing.
    var loyalty: (any ChargeLoyalty)? = nil
    /// The second factor asked before money leaves (`SecondFactorService`); none: nothing is asked.
    var secondFactors: (any SecondFactorGate)? = nil

    /// The balances of the caller, one per currency they hold (the default currency when they hold none).
    func wallet(_ identity: Identity) async throws -> Wallet {
        let balances = try await ledger.balances(owner: identity.user.id, on: database.sql)
        let pending = try await funding.pendingTopUps(user: identity.user.id, on: database.sql)
        let currencies = Set(balances.keys).union(pending.keys).union([configuration.currencies[0]])
        return Wallet(
            balances: currencies.sorted().map {
                Balance(currency: $0, available: balances[$0] ?? 0, pending: pending[$0] ?? 0)
            }
        )
    }

    /// Sends money to another user, at once and without fees.
    func transfer(
        _ identity: Identity,
        _ request: TransferRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> SentTransfer {
        let claim = try Self.require(claim)
        try identity.requireVerified()
        var validator = Validator()
        validator.check(
            !request.to.trimmingCharacters(in: .whitespaces).isEmpty,
            "to",
            "Name the recipient by username."
        )
        validator.apply(WalletRules.textProblem(request.note), to: "note")
        let moneyProblems = WalletRules.moneyProblems(
            amount: request.amount,
            currency: request.currency,
            accepted: configuration.currencies
        )
        guard validator.isValid, moneyProblems.isEmpty else {
            throw PlazaError.validation(validator.errors + moneyProblems)
        }
        let sender = identity.user
        let note = ShownText.trimmed(request.note)
        let username = AccountRules.handle(request.to)
        // A name no account could have (an e-mail address, control characters) is not looked up at all.
        guard AccountRules.usernameProblem(username) == nil else {
            throw PlazaError.validation(field: "to", phrase("No one has this username."))
        }
        guard username != sender.username else {
            throw PlazaError.validation(field: "to", phrase("You cannot send money to yourself."))
        }
        try await requireSecondFactor(
            identity,
            .payment(Money(amount: request.amount, currency: request.currency)),
            now: now
        )
        let job = TransferJob(
            sender: sender,
            recipient: username,
            amount: request.amount,
            currency: request.currency,
            note: note,
            claim: claim,
            createdAt: now
        )
        let service = self
        return try await transfers.submit(job) { jobs in await service.runTransfers(jobs) }
    }

    /// Posts `entry`, turning an overdraft into the API's `insufficient_funds` problem (the transaction then rolls back).
    func post(_ entry: JournalEntry, on db: any SQLDatabase) async throws {
        do {
            try await ledger.post(entry, on: db)
        } catch is InsufficientFunds {
            throw PlazaError.insufficientFunds
        }
    }

    /// Refuses to let an account or a business go while money or open charges would be stranded with it: a positive
    /// balance (withdraw it first) or, for a business, charges still waiting for customers (cancel them first).
    func requireNothingHeld(by owner: UUID, business: Bool, now: Date = Date(), on db: any SQLDatabase) async throws {
        let balances = try await ledger.balances(owner: owner, on: db).filter { $0.value > 0 }.sorted {
            $0.key < $1.key
        }
        if let (currency, amount) = balances.first {
            let money = ["amount": sayAmount(Money(amount: amount, currency: currency))]
            throw PlazaError(
                .conflict,
                .conflict,
                business
                    ? say("The business still holds {amount}.", money)
                    : say("Your wallet still holds {amount}.", money),
                detail: business
                    ? phrase("Pay it out to the bank first (the counter's Pay out), then delete the business.")
                    : phrase(
                        "Withdraw it to your bank or send it to someone first (Wallet → Withdraw), then delete the account."
                    )
            )
        }
        // A payout that fails, or a top-up captured late, would credit an owner who is gone.
        if try await funding.pendingCount(owner: owner, business: business, on: db) > 0 {
            throw PlazaError(
                .conflict,
                .conflict,
                phrase("A top-up or withdrawal is still on its way."),
                detail:
                    phrase(
                        "Wait until the card processor has settled it (usually minutes, at most a few days), then try again."
                    )
            )
        }
        guard business else { return }
        let waiting = try await charges.pendingCount(business: owner, now: now, on: db)
        if waiting > 0 {
            throw PlazaError(
                .conflict,
                .conflict,
                waiting == 1
                    ? phrase("A charge is still waiting for a customer.")
                    : say("{count} charges are still waiting for customers.", ["count": String(waiting)]),
                detail: phrase("Cancel them at the counter (or let them expire), then delete the business.")
            )
        }
    }

    /// A deleted account shows as "Deleted user" in everyone else's history, receipts and exports.
    func eraseUser(_ user: UUID) async throws {
        try await database.transaction { db in
            try await activity.forgetCounterpart(user, on: db)
            try await charges.forgetCustomer(user, on: db)
        }
    }

    static func require(_ claim: IdempotencyClaim?) throws -> IdempotencyClaim {
        guard let claim else { throw PlazaError.idempotencyKeyRequired }
        return claim
    }

    package static func party(_ user: UserRecord) -> Party {
        Party(kind: .user, username: user.username, name: user.displayName)
    }

    static func event(_ type: String, _ payload: some Encodable, at time: Date) throws -> PlazaEvent {
        PlazaEvent(type: type, occurredAt: time, data: try JSONValue(encoding: payload))
    }

    /// The English of a charge's alert where no wording replaces it (see `chargeWording`): "$4.20", "€4.20".
    static func alertMoney(_ money: Money) -> String {
        money.formatted(locale: Locale(identifier: "en_US"))
    }
}

extension PlazaError {
    static let insufficientFunds = PlazaError(
        .unprocessableContent,
        .insufficientFunds,
        phrase("Not enough money in the wallet."),
        detail: phrase("Top up or send less; nothing was moved."),
        errors: [FieldError(field: "amount", message: phrase("More than the available balance."))]
    )
    static let idempotencyKeyRequired = PlazaError(
        .badRequest,
        .idempotencyKeyRequired,
        phrase("This request moves money and needs an Idempotency-Key header."),
        detail: phrase("Send a new random key (a UUID) per payment, and the same key when you retry it."),
        errors: [FieldError(field: "Idempotency-Key", message: phrase("Required."))]
    )
    static var idempotencyLeaseLost: PlazaError {
        var error = PlazaError(
            .conflict,
            .conflict,
            phrase("A retry of this request took over; nothing was moved by this one.")
        )
        error.headers[.retryAfter] = "1"
        return error
    }
}
