import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Paying for an order: from the wallet at once, or by card (a wallet top-up the order spends when it settles, in the
/// settling transaction; a failed or abandoned one leaves the order to pay again, saying why).
extension CardsService {
    /// Pays a pending order's total: from the wallet at once, or by card (a top-up that pays it once settled).
    func pay(
        _ identity: Identity,
        order id: UUID,
        _ request: CardPaymentRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws
        -> CardOrder
    {
        guard let claim else { throw PlazaError.idempotencyKeyRequired }
        let order = try await ownOrder(identity, id)
        guard order.status == .pendingPayment else {
            throw Self.stateError(order, phrase("This order is paid already."))
        }
        guard request.amount == order.total, request.currency == order.currency else {
            throw PlazaError(
                .unprocessableContent,
                .approvalMismatch,
                phrase("The total changed."),
                detail: phrase("Pay the order's total as it is now."),
                errors: [
                    FieldError(
                        field: "amount",
                        message: say(
                            "The total is {total} {currency}.",
                            ["total": String(order.total), "currency": order.currency]
                        )
                    )
                ]
            )
        }
        guard let payments else { throw PlazaError.paymentsUnavailable }
        let money = try await orderMoney(order)
        let (store, idempotency) = (store, idempotency)
        switch request.method {
        case .wallet:
            try await payments.requireSecondFactor(
                identity,
                Money(amount: order.total, currency: order.currency),
                now: now
            )
            let paid = try await events.transaction(publishing: { db -> (CardOrder, [FeedMessage]) in
                try await payments.charge(money, now: now, on: db)
                guard
                    try await store.move(
                        order: id,
                        from: [.pendingPayment],
                        to: .paid,
                        set: [("payment_method", SQLBind("wallet")), ("paid_at", SQLBind(now))],
                        now: now,
                        on: db
                    )
                else { throw Self.stateError(order, phrase("This order is paid already.")) }
                let dto = try await self.order(id, on: db)
                try await self.confirm(dto, owner: identity.user.id, to: identity.user.email, on: db)
                try await idempotency.record(dto, status: 200, claim: claim, on: db)
                return (dto, [])
            })
            mailQueued()
            return paid
        case .card:
            let prepared = try await payments.prepareCardPayment(
                identity,
                money,
                card: request.card,
                returnPath: "/cards/orders/\(id.uuidString.lowercased())",
                now: now
            )
            let started = try await database.transaction { db -> CardOrder in
                try await payments.record(prepared, identity: identity, now: now, on: db)
                guard
                    try await store.move(
                        order: id,
                        from: [.pendingPayment],
                        to: .pendingPayment,
                        set: [
                            ("payment_method", SQLBind("card")), ("payment_reference", SQLBind(prepared.reference)),
                            ("checkout_url", SQLBind(prepared.checkoutURL)), ("payment_problem", SQLLiteral.null),
                        ],
                        now: now,
                        on: db
                    )
                else { throw Self.stateError(order, phrase("This order is paid already.")) }
                let dto = try await self.order(id, on: db)
                try await idempotency.record(dto, status: 200, claim: claim, on: db)
                return dto
            }
            await payments.send(prepared)
            return started
        }
    }

    /// What the shopper's wallet holds in `currency` (nil where this Plaza takes no payments).
    func walletAvailable(_ identity: Identity, currency: String) async throws -> Int64? {
        try await payments?.available(identity, currency: currency)
    }

    /// The shopper came back from the processor's page without paying: that page is closed, and the order waits for
    /// payment again (unless it was paid there after all: then the processor's word settles it).
    func abandonCardPayment(_ identity: Identity, order id: UUID) async throws {
        let order = try await ownOrder(identity, id)
        guard order.status == .pendingPayment, order.paymentMethod == .card, let reference = order.paymentReference,
            let payments
        else { return }
        try await payments.abandon(identity, reference: reference)
    }

    /// The card shop's part of the bus's transactions: a card top-up made for an order settled, so the order is paid
    /// from the money it brought (in the same transaction: the money never sits unspent).
    func paymentRecorder() -> EventBus.Recorder {
        let service = self
        return EventBus.Recorder(
            record: { messages, db in
                var mailed = false
                for case .topUpSettled(let user, let reference, let succeeded, let failure) in messages {
                    guard let order = try await service.store.order(paymentReference: reference, on: db),
                        order.ownerId == user,
                        order.status == .pendingPayment, let payments = service.payments
                    else { continue }
                    let now = Date()
                    guard succeeded else {
                        // The order waits for payment again, its page saying why (a card may be tried again).
                        _ = try await service.store.move(
                            order: order.id,
                            from: [.pendingPayment],
                            to: .pendingPayment,
                            set: [
                                ("payment_method", SQLLiteral.null), ("checkout_url", SQLLiteral.null),
                                ("payment_problem", SQLBind(failure ?? "The card payment did not go through.")),
                            ],
                            now: now,
                            on: db
                        )
                        continue
                    }
                    // The order moves first, from its row: one cancelled meanwhile keeps the money in the wallet (the
                    // top-up credited it), never in the card shop's sales for an order that will not print.
                    guard
                        try await service.store.move(
                            order: order.id,
                            from: [.pendingPayment],
                            to: .paid,
                            set: [("paid_at", SQLBind(now))],
                            now: now,
                            on: db
                        )
                    else { continue }
                    try await payments.charge(try await service.orderMoney(order, on: db), now: now, on: db)
                    let email = try await AccountStore().user(id: user, on: db)?.email
                    if let email {
                        let dto = try await service.order(order.id, on: db)
                        try await service.confirm(dto, owner: user, to: email, on: db)
                    }
                    mailed = true
                }
                return mailed
            },
            committed: mailQueued
        )
    }
}
