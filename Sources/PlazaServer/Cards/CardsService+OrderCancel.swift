import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import PlazaMedia
import SQLKit

/// Cancelling an order: the shopper before production, an admin before shipping; paid money goes back to the wallet.
extension CardsService {
    /// The shopper calls the order off before it goes to production; a paid one's money goes back to their wallet.
    func cancel(
        _ identity: Identity,
        order id: UUID,
        _ request: CardCancelRequest,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws
        -> CardOrder
    {
        guard let claim else { throw PlazaError.idempotencyKeyRequired }
        let order = try await ownOrder(identity, id)
        return try await cancel(
            order,
            from: [.pendingPayment, .paid],
            reason: request.reason ?? phrase("Cancelled by you."),
            claim: claim,
            now: now
        )
    }

    /// An admin cancels an order that has not shipped, with the reason the shopper reads; paid money goes back.
    func adminCancel(_ id: UUID, reason: String?, now: Date = Date()) async throws -> CardOrder {
        let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        guard let reason else { throw PlazaError.validation(field: "reason", phrase("Say why: the shopper reads it.")) }
        guard let order = try await store.order(id, on: database.sql) else { throw PlazaError.notFound("order") }
        return try await cancel(
            order,
            from: [.pendingPayment, .paid, .inProduction],
            reason: reason,
            claim: nil,
            now: now
        )
    }

    private func cancel(
        _ order: CardsStore.OrderRecord,
        from: [CardOrderStatus],
        reason: String,
        claim: IdempotencyClaim?,
        now: Date
    ) async throws -> CardOrder {
        guard from.contains(order.status) else {
            throw Self.stateError(order, phrase("This order can no longer be cancelled."))
        }
        let money = try await orderMoney(order)
        let (store, idempotency, payments) = (store, idempotency, payments)
        let email = try await AccountStore().user(id: order.ownerId, on: database.sql)?.email
        let cancelled = try await database.transaction { db -> CardOrder in
            guard let current = try await store.order(order.id, forUpdate: true, on: db), from.contains(current.status),
                try await store.move(
                    order: order.id,
                    from: from,
                    to: .cancelled,
                    set: [("cancel_reason", SQLBind(reason))],
                    now: now,
                    on: db
                )
            else { throw Self.stateError(order, phrase("This order can no longer be cancelled.")) }
            if current.status != .pendingPayment { try await payments?.refund(money, now: now, on: db) }
            try await store.releaseSampleCredits(order: order.id, on: db)
            let dto = try await self.order(order.id, on: db)
            if let email {
                let refunded =
                    current.status == .pendingPayment ? nil : Money(amount: order.total, currency: order.currency)
                let mail = try await self.cancelledMail(
                    dto,
                    owner: order.ownerId,
                    to: email,
                    reason: reason,
                    refunded: refunded,
                    on: db
                )
                try await OutboxStore().enqueue(mail, on: db, now: now)
            }
            if let claim { try await idempotency.record(dto, status: 200, claim: claim, on: db) }
            return dto
        }
        mailQueued()
        return cancelled
    }
}
