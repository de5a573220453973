import Foundation
import PlazaCore
import SQLKit

/// The wallet's answer to the card shop's `CardShopPayments`: an order is paid from the shopper's balance into the card
/// shop's sales account (`card_order`), refunded back (`card_refund`); a card payment is a top-up of the balance that
/// the card shop spends on the order when it settles.
struct WalletCardShopPayments: CardShopPayments {
    let wallet: WalletService

    private struct TopUpState: Sendable {
        var record: FundingRecord
        var card: CardDetails?
    }

    func charge(_ money: CardOrderMoney, now: Date, on db: any SQLDatabase) async throws {
        try await move(
            money,
            kind: "card_order",
            from: (money.user, .user),
            to: (SystemAccount.cardSales, .system),
            now: now,
            on: db
        )
        try await wallet.activity.insert([record(money, kind: .cardOrder, sign: -1, now: now)], on: db)
    }

    func requireSecondFactor(_ identity: Identity, _ money: Money, now: Date) async throws {
        try await wallet.requireSecondFactor(identity, .payment(money), now: now)
    }

    func available(_ identity: Identity, currency: String) async throws -> Int64 {
        try await wallet.wallet(identity).balances.first { $0.currency == currency }?.available ?? 0
    }

    func refund(_ money: CardOrderMoney, now: Date, on db: any SQLDatabase) async throws {
        try await move(
            money,
            kind: "card_refund",
            from: (SystemAccount.cardSales, .system),
            to: (money.user, .user),
            now: now,
            on: db
        )
        try await wallet.activity.insert([record(money, kind: .cardRefund, sign: 1, now: now)], on: db)
    }

    func prepareCardPayment(
        _ identity: Identity,
        _ money: CardOrderMoney,
        card: CardDetails?,
        returnPath: String,
        now: Date
    ) async throws
        -> PreparedCardPayment
    {
        guard let gateway = wallet.gateway else { throw PlazaError.paymentsUnavailable }
        try identity.requireVerified()
        var problems: [FieldError] = []
        switch (gateway.cardEntry, card) {
        case (.plazaForm, let card?): problems += WalletRules.cardProblems(card, now: now)
        case (.plazaForm, nil):
            problems.append(
                FieldError(field: "card", message: "Give the card's number, expiry date and security code.")
            )
        case (.hostedPage, nil): break
        case (.hostedPage, _?):
            problems.append(
                FieldError(
                    field: "card",
                    message: "This Plaza takes cards only on its processor's secure page: leave card out."
                )
            )
        }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let digits = card?.number.filter(\.isNumber)
        var record = FundingRecord(
            user: identity.user.id,
            amount: money.amount,
            currency: money.currency,
            cardBrand: digits.map(WalletRules.cardBrand),
            cardLast4: digits.map { String($0.suffix(4)) },
            createdAt: now,
            updatedAt: now
        )
        if gateway.cardEntry == .hostedPage {
            let start = PaymentStart(
                reference: record.id,
                amount: record.amount,
                currency: record.currency,
                email: identity.user.email,
                successURL: "\(wallet.baseURL)\(returnPath)?notice=card-paid",
                cancelURL: "\(wallet.baseURL)\(returnPath)/card-cancelled"
            )
            let started = try await gateway.startPayment(start, idempotencyKey: "top-up-\(start.reference)")
            (record.gatewayId, record.checkoutURL) = (started.id, started.checkoutURL)
        }
        return PreparedCardPayment(
            reference: record.id,
            checkoutURL: record.checkoutURL,
            state: TopUpState(record: record, card: card)
        )
    }

    func record(_ payment: PreparedCardPayment, identity: Identity, now: Date, on db: any SQLDatabase) async throws {
        guard let state = payment.state as? TopUpState else { return }
        try await wallet.checkLimits(.topUp, state.record, accountCreated: identity.user.createdAt, now: now, on: db)
        try await wallet.funding.insert(state.record, .topUp, on: db)
        try await wallet.activity.insert(
            [WalletService.activity(for: state.record, kind: .topUp, amount: state.record.amount)],
            on: db
        )
    }

    func send(_ payment: PreparedCardPayment) async {
        guard let state = payment.state as? TopUpState, let card = state.card else { return }
        await wallet.send(state.record, card: card)
    }

    func abandon(_ identity: Identity, reference: UUID) async throws {
        try await wallet.cancelTopUp(identity, id: reference)
    }

    private func move(
        _ money: CardOrderMoney,
        kind: String,
        from: (UUID, LedgerAccountKind),
        to: (UUID, LedgerAccountKind),
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        try await wallet.post(
            JournalEntry(
                kind: kind,
                referenceId: money.order,
                currency: money.currency,
                postings: [
                    Posting(owner: from.0, kind: from.1, amount: -money.amount),
                    Posting(owner: to.0, kind: to.1, amount: money.amount),
                ],
                createdAt: now
            ),
            on: db
        )
    }

    private func record(_ money: CardOrderMoney, kind: ActivityKind, sign: Int64, now: Date) -> ActivityRecord {
        ActivityRecord(
            owner: money.user,
            kind: kind,
            amount: sign * money.amount,
            currency: money.currency,
            status: .succeeded,
            counterpart: Party(kind: .plaza, name: "Plaza card shop"),
            counterpartId: nil,
            note: money.title,
            referenceId: money.order,
            createdAt: now
        )
    }
}
