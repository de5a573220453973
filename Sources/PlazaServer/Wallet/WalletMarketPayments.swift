import Foundation
import PlazaCore
import SQLKit

/// The wallet's answer to the marketplace's `MarketPayments`: a deal's money moves through Plaza's holding account in
/// the ledger (`market_hold`, then `market_release` or `market_refund`), and each side's history shows it.
struct WalletMarketPayments: MarketPayments {
    /// Its ledger posts (an overdraft is `insufficient_funds`) and its history stores.
    let wallet: WalletService

    func requireSecondFactor(_ identity: Identity, _ money: Money, now: Date) async throws {
        try await wallet.requireSecondFactor(identity, .payment(money), now: now)
    }

    func hold(_ money: DealMoney, now: Date, on db: any SQLDatabase) async throws {
        try await move(
            money,
            kind: "market_hold",
            from: (money.buyer.id, .user),
            to: (SystemAccount.marketHolds, .system),
            now: now,
            on: db
        )
        try await wallet.activity.insert(
            [record(money, owner: money.buyer, kind: .marketHold, sign: -1, other: money.seller, now: now)],
            on: db
        )
    }

    func release(_ money: DealMoney, now: Date, on db: any SQLDatabase) async throws {
        try await move(
            money,
            kind: "market_release",
            from: (SystemAccount.marketHolds, .system),
            to: (money.seller.id, .user),
            now: now,
            on: db
        )
        try await wallet.activity.insert(
            [record(money, owner: money.seller, kind: .marketSale, sign: 1, other: money.buyer, now: now)],
            on: db
        )
    }

    func refund(_ money: DealMoney, now: Date, on db: any SQLDatabase) async throws {
        try await move(
            money,
            kind: "market_refund",
            from: (SystemAccount.marketHolds, .system),
            to: (money.buyer.id, .user),
            now: now,
            on: db
        )
        try await wallet.activity.insert(
            [record(money, owner: money.buyer, kind: .marketRefund, sign: 1, other: money.seller, now: now)],
            on: db
        )
    }

    func held(currency: String, on db: any SQLDatabase) async throws -> Int64 {
        try await wallet.ledger.balances(owner: SystemAccount.marketHolds, on: db)[currency] ?? 0
    }

    private func move(
        _ money: DealMoney,
        kind: String,
        from: (UUID, LedgerAccountKind),
        to: (UUID, LedgerAccountKind),
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        try await wallet.post(
            JournalEntry(
                kind: kind,
                referenceId: money.deal,
                currency: money.amount.currency,
                postings: [
                    Posting(owner: from.0, kind: from.1, amount: -money.amount.amount),
                    Posting(owner: to.0, kind: to.1, amount: money.amount.amount),
                ],
                createdAt: now
            ),
            on: db
        )
    }

    private func record(
        _ money: DealMoney,
        owner: DealParty,
        kind: ActivityKind,
        sign: Int64,
        other: DealParty,
        now: Date
    ) -> ActivityRecord {
        ActivityRecord(
            owner: owner.id,
            kind: kind,
            amount: sign * money.amount.amount,
            currency: money.amount.currency,
            status: .succeeded,
            counterpart: Party(kind: .user, username: other.username, name: other.name),
            counterpartId: other.id,
            note: money.title,
            referenceId: money.deal,
            createdAt: now
        )
    }
}
