import Foundation
import PlazaCore
import SQLKit

/// One side of a deal, as the wallet's history names them.
struct DealParty: Sendable {
    var id: UUID
    var username: String
    var name: String
}

/// A deal's money as the wallet sees it: who pays whom, how much, and what for.
struct DealMoney: Sendable {
    /// The offer: every movement of this deal is filed under its id.
    var deal: UUID
    var amount: Money
    var buyer: DealParty
    var seller: DealParty
    /// The listing's title, the note in both histories.
    var title: String
}

/// What the marketplace asks of the wallet to pay through Plaza: the buyer's money held when they pay for an accepted
/// offer, released to the seller at the handshake, or refunded. The wallet answers it (`WalletMarketPayments`, wired in
/// `PlazaServices`), so the marketplace touches no ledger. Every call runs inside the deal's own transaction.
protocol MarketPayments: Sendable {
    /// Asks the request's second factor when paying `money` from the balance needs one (before the deal's transaction).
    func requireSecondFactor(_ identity: Identity, _ money: Money, now: Date) async throws
    /// Takes the amount from the buyer's balance into Plaza's holding account; 422 `insufficient_funds` when it is short.
    func hold(_ money: DealMoney, now: Date, on db: any SQLDatabase) async throws
    /// Pays the held amount to the seller.
    func release(_ money: DealMoney, now: Date, on db: any SQLDatabase) async throws
    /// Gives the held amount back to the buyer.
    func refund(_ money: DealMoney, now: Date, on db: any SQLDatabase) async throws
    /// What Plaza's holding account holds in `currency` (the sum of every held deal, when all is well).
    func held(currency: String, on db: any SQLDatabase) async throws -> Int64
}
