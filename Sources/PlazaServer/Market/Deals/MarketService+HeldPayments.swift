import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// A deal's held money: the buyer pays an accepted offer into Plaza's hold; calling the deal off gives it back.
extension MarketService {
    /// The buyer pays an accepted offer into Plaza's hold, once (`Idempotency-Key` required): their balance drops now,
    /// the seller's rises only at the handshake.
    func payOffer(
        _ identity: Identity,
        offer id: UUID,
        claim: IdempotencyClaim?,
        now: Date = Date()
    ) async throws -> DealPayment {
        guard let claim else { throw PlazaError.idempotencyKeyRequired }
        try identity.requireVerified()
        _ = try await requireStudent(identity, now: now)
        let offer = try await offerSide(identity, id)
        guard offer.buyerId == identity.user.id else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("Only the buyer pays for an offer."),
                detail: phrase("Your buyer pays into Plaza's hold.")
            )
        }
        guard offer.state == .accepted, offer.paymentState == nil else {
            var error = PlazaError(
                .conflict,
                .stateConflict,
                offer.paymentState == nil
                    ? phrase("Only an accepted offer can be paid.") : phrase("You paid for this offer already."),
                detail: offer.paymentState == nil
                    ? phrase("Wait until the seller accepts your price.")
                    : phrase("Plaza holds it until the handshake.")
            )
            error.currentState = offer.paymentState?.rawValue ?? offer.state.rawValue
            throw error
        }
        guard let payments else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("Paying through Plaza is not available here."),
                detail: phrase("Pay the seller at the meetup.")
            )
        }
        let money = try await dealMoney(offer)
        try await payments.requireSecondFactor(
            identity,
            Money(amount: offer.amount, currency: offer.currency),
            now: now
        )
        let payment = DealPayment(
            state: .held,
            amount: offer.amount,
            currency: offer.currency,
            heldAt: now,
            settledAt: nil
        )
        let (deals, idempotency) = (deals, idempotency)
        let summary = Wording(
            title: phrase("{name} paid {money} into Plaza's hold for {title}"),
            body: "",
            values: ["name": Self.name(identity.user), "title": money.title],
            amounts: ["money": Money(amount: offer.amount, currency: offer.currency)]
        )
        return try await events.transaction(publishing: { db in
            guard try await deals.hold(id, amount: offer.amount, now: now, on: db) else {
                throw Self.offerConflict(offer, answering: .buyer)
            }
            try await payments.hold(money, now: now, on: db)
            try await idempotency.record(payment, status: 201, claim: claim, on: db)
            let dto = try await deals.offer(id, on: db)?.dto
            return (
                payment,
                try Self.dealMessages(
                    offer.conversationId,
                    to: offer.sellerId,
                    from: offer.buyerId,
                    summary,
                    offer: dto,
                    now: now
                )
            )
        })
    }

    /// Either side calls the deal off: an open offer is cancelled, held money goes back to the buyer, and a reserved
    /// listing is for sale again.
    func cancelOffer(_ identity: Identity, offer id: UUID, now: Date = Date()) async throws -> PriceOffer {
        _ = try await requireStudent(identity, now: now)
        let offer = try await offerSide(identity, id)
        guard offer.state.isOpen else { throw Self.offerConflict(offer, answering: nil) }
        let money = try await dealMoney(offer)
        let (deals, other) = (deals, offer.buyerId == identity.user.id ? offer.sellerId : offer.buyerId)
        let service = self
        return try await events.transaction(publishing: { db in
            // What the offer held is read from the row the cancel changed, not from `offer` (a payment may have landed).
            guard let refunded = try await service.cancel(offer, money: money, now: now, on: db) else {
                throw Self.offerConflict(try await deals.offer(id, on: db) ?? offer, answering: nil)
            }
            let summary = Wording(
                title: refunded > 0
                    ? phrase("{name} called off the deal for {title} · {money} went back to the buyer")
                    : phrase("{name} called off the deal for {title}"),
                body: "",
                values: ["name": Self.name(identity.user), "title": money.title],
                amounts: ["money": Money(amount: refunded, currency: offer.currency)]
            )
            guard let changed = try await deals.offer(id, on: db)?.dto else { throw PlazaError.notFound("offer") }
            return (
                changed,
                try Self.dealMessages(
                    offer.conversationId,
                    to: other,
                    from: identity.user.id,
                    summary,
                    offer: changed,
                    now: now
                )
            )
        })
    }

    // MARK: Inside a transaction

    /// Cancels an open offer in the caller's transaction: the money its row holds then goes back to the buyer, and the
    /// listing it reserved is for sale again. Every decision comes from the rows changed here, never from `offer` (read
    /// before the transaction: the buyer may have paid, or the seller accepted, since). Nil when it was no longer open;
    /// else the amount refunded (0: nothing was held).
    func cancel(
        _ offer: DealStore.OfferRecord,
        money: DealMoney,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Int64? {
        let wasAccepted = try await deals.move(offer.id, from: [.accepted], to: .cancelled, now: now, on: db)
        if !wasAccepted {
            guard try await deals.move(offer.id, from: [.pending, .countered], to: .cancelled, now: now, on: db) else {
                return nil
            }
        }
        var refunded: Int64 = 0
        if let held = try await deals.settle(offer.id, to: .refunded, now: now, on: db) {
            guard let payments else { throw PlazaError.paymentsUnavailable }
            var money = money
            money.amount = Money(amount: held, currency: offer.currency)
            try await payments.refund(money, now: now, on: db)
            refunded = held
        }
        if wasAccepted {
            // The deal is off: its meetup too (a handshake racing this cancel finds nothing to confirm). Offer, meetups,
            // listing: the order every deal transaction locks them in.
            try await deals.cancelMeetups(conversation: offer.conversationId, now: now, on: db)
            _ = try await listings.move(offer.listingId, from: [.reserved], to: .active, now: now, on: db)
        }
        return refunded
    }

    /// Cancels every open offer of a listing that was sold another way or removed (refunding held money).
    func closeOffers(listing: UUID, now: Date, on db: any SQLDatabase) async throws {
        for offer in try await deals.openOffers(listing: listing, on: db) {
            _ = try await cancel(offer, money: try await dealMoney(offer, on: db), now: now, on: db)
        }
    }

    /// Refuses to let an account go while money of one of its deals is held (cancel the deal first).
    static func requireNoHeldDeal(_ user: UUID, on db: any SQLDatabase) async throws {
        guard try await DealStore().holdsMoney(user, on: db) else { return }
        throw PlazaError(
            .conflict,
            .conflict,
            phrase("Plaza holds money for one of your marketplace deals."),
            detail:
                phrase(
                    phrase(
                        "Finish the deal with its handshake, or call it off (the money goes back to the buyer), then delete the account."
                    )
                )
        )
    }
}
