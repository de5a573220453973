import Foundation
import PlazaCore
import SQLKit

/// An order's money as the card shop hands it to whoever moves money (the wallet).
struct CardOrderMoney: Sendable {
    var order: UUID
    var user: UUID
    var amount: Int64
    var currency: String
    /// What the shopper's history calls it ("Cards: Golden Circle").
    var title: String
}

/// A card payment being opened: the wallet's top-up that pays the order once it settles.
struct PreparedCardPayment: Sendable {
    /// The top-up's id: the order waits for `.topUpSettled` with this reference.
    var reference: UUID
    /// The processor's page, when cards are taken there.
    var checkoutURL: String?
    /// What the wallet needs to record and send it (its own types).
    var state: any Sendable
}

/// How the card shop takes money for an order and gives it back; the wallet answers it (`WalletCardShopPayments`), so
/// the card shop never reaches into the wallet's service.
protocol CardShopPayments: Sendable {
    /// Takes the order's total from the shopper's balance; 422 `insufficient_funds` when it is short.
    func charge(_ money: CardOrderMoney, now: Date, on db: any SQLDatabase) async throws
    /// Asks the request's second factor when paying `money` from the balance needs one (before any transaction).
    func requireSecondFactor(_ identity: Identity, _ money: Money, now: Date) async throws
    /// What the shopper's balance holds in `currency`, for the pay form.
    func available(_ identity: Identity, currency: String) async throws -> Int64
    /// Gives a paid order's money back to the shopper's balance.
    func refund(_ money: CardOrderMoney, now: Date, on db: any SQLDatabase) async throws
    /// Checks the card and opens a top-up of the total (a hosted page is opened here, before any transaction).
    func prepareCardPayment(
        _ identity: Identity,
        _ money: CardOrderMoney,
        card: CardDetails?,
        returnPath: String,
        now: Date
    ) async throws
        -> PreparedCardPayment
    /// Records the prepared top-up in the caller's transaction.
    func record(_ payment: PreparedCardPayment, identity: Identity, now: Date, on db: any SQLDatabase) async throws
    /// After the commit: hands the card to the processor; its webhook settles the top-up, which pays the order.
    func send(_ payment: PreparedCardPayment) async
    /// The shopper left the processor's page without paying: the top-up `reference` is called off (its settling says so).
    func abandon(_ identity: Identity, reference: UUID) async throws
}
