import Crypto
import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// The handshake that completes a meetup's deal, and the sweep that expires meetups whose window passed.
extension MarketService {
    // MARK: The handshake

    /// The seller's code and QR for an accepted meetup, in its window; a new one replaces the last. Anyone else: 404.
    func handshake(_ identity: Identity, meetup id: UUID, now: Date = Date()) async throws -> Handshake {
        _ = try await requireStudent(identity, now: now)
        let (meetup, conversation) = try await meetupSide(identity, id)
        guard conversation.sellerId == identity.user.id else { throw PlazaError.notFound("meetup") }
        try Self.requireWindow(meetup, now: now)
        let code = Secrets.sixDigitCode()
        let nonce = Secrets.randomToken(bytes: 18)
        let token = "plaza:handshake:\(id.uuidString.lowercased()).\(nonce).\(signature(id, nonce))"
        guard
            try await deals.issueHandshake(
                id,
                codeHash: codeHash(id, code),
                tokenHash: secrets.hash("handshake-token:\(nonce)"),
                expiresAt: meetup.windowEnd,
                on: database.sql
            )
        else { throw Self.meetupConflict(meetup, nil) }
        return Handshake(code: code, token: token, expiresAt: meetup.windowEnd)
    }

    /// The buyer's scan or typed code: the listing is sold to them, their held payment goes to the seller, the meetup is
    /// complete. A wrong code is 422 (five void the handshake); a used one, or outside the window, 409; anyone else 404.
    func confirmHandshake(
        _ identity: Identity,
        meetup id: UUID,
        _ confirmation: HandshakeConfirmation,
        now: Date = Date()
    ) async throws -> HandshakeResult {
        _ = try await requireStudent(identity, now: now)
        let (meetup, conversation) = try await meetupSide(identity, id)
        guard conversation.buyerId == identity.user.id else { throw PlazaError.notFound("meetup") }
        try Self.requireWindow(meetup, now: now)
        guard let codeHash = meetup.codeHash, let tokenHash = meetup.tokenHash else {
            var error = PlazaError(
                .conflict,
                .stateConflict,
                phrase("The seller's code is not showing."),
                detail: phrase("Ask the seller to open the handshake on their phone, then scan it or type its code.")
            )
            error.currentState = meetup.state.rawValue
            throw error
        }
        let match = try matchingHash(id, confirmation)
        guard Secrets.constantTimeEquals(match.hash, match.column == "code_hash" ? codeHash : tokenHash) else {
            let attempts = try await deals.wrongCode(id, limit: DealRules.handshakeAttempts, on: database.sql)
            let left = max(0, DealRules.handshakeAttempts - attempts)
            throw PlazaError(
                .unprocessableContent,
                .invalidCode,
                phrase("This is not the seller's code."),
                detail: left > 0
                    ? phrase("Check the six digits on the seller's phone and try again.")
                    : phrase("Too many wrong codes: ask the seller to show a new one."),
                errors: [FieldError(field: match.field, message: phrase("Not the code on the seller's phone."))]
            )
        }
        let (offer, _, title) = try await acceptedDeal(conversation.id, listing: meetup.listingId)
        let (deals, listings, payments) = (deals, listings, payments)
        let service = self
        return try await events.transaction(publishing: { db in
            var payment: DealPayment? = nil
            var released: Int64 = 0
            // The deal completes from the rows it changes, never from `offer` (read before): called off meanwhile, the
            // handshake does not happen; accepted or paid meanwhile, that offer completes and its held money goes to
            // the seller. The offer's row first, then the meetup's, then the listing's, as every deal transaction.
            let completed = try await deals.completeAccepted(conversation: conversation.id, now: now, on: db)
            guard try await deals.useHandshake(id, column: match.column, hash: match.hash, now: now, on: db) else {
                throw Self.meetupConflict(
                    meetup,
                    phrase("This code was used, the seller showed a new one, or the deal was called off.")
                )
            }
            if let completed {
                if let held = try await deals.settle(completed, to: .released, now: now, on: db) {
                    guard let payments, let record = try await deals.offer(completed, on: db) else {
                        throw PlazaError.paymentsUnavailable
                    }
                    var money = try await service.dealMoney(record, on: db)
                    money.amount = Money(amount: held, currency: record.currency)
                    try await payments.release(money, now: now, on: db)
                    released = held
                }
                payment = try await deals.offer(completed, on: db)?.payment
            } else if offer != nil {
                throw Self.meetupConflict(meetup, phrase("This deal was called off meanwhile."))
            }
            guard
                try await listings.move(
                    meetup.listingId,
                    from: [.active, .reserved],
                    to: .sold,
                    soldTo: identity.user.id,
                    now: now,
                    on: db
                )
            else { throw Self.finished(.sold) }
            let summary = Wording(
                title: released > 0
                    ? phrase("{name} confirmed the handshake: {title} is sold · {money} is in your wallet")
                    : phrase("{name} confirmed the handshake: {title} is sold"),
                body: "",
                values: ["name": Self.name(identity.user), "title": title],
                amounts: ["money": Money(amount: released, currency: offer?.currency ?? service.currency)]
            )
            // Every other buyer's open offer ends with the sale.
            try await service.closeOffers(listing: meetup.listingId, now: now, on: db)
            guard let sold = try await listings.listing(meetup.listingId, on: db) else {
                throw PlazaError.notFound("listing")
            }
            let changed = try await deals.meetup(id, on: db)?.dto
            let result = HandshakeResult(
                listing: try await service.view(sold, viewer: identity.user.id, now: now, on: db),
                payment: payment
            )
            return (
                result,
                try Self.dealMessages(
                    conversation.id,
                    to: conversation.sellerId,
                    from: identity.user.id,
                    summary,
                    meetup: changed,
                    now: now
                )
                    + (try await service.wishListAlerts(sold, oldPrice: nil, now: now, on: db))
            )
        })
    }

    // MARK: The sweep

    /// Expires meetups whose window passed: an accepted one without a handshake calls its deal off (held money back to
    /// the buyer, the listing for sale again). Run every minute (`PlazaServices.backgroundServices`); each step is conditional.
    @discardableResult
    package func expireMeetups(now: Date = Date()) async throws -> Int {
        let due = try await deals.dueMeetups(now: now, limit: 100, on: database.sql)
        var expired = 0
        for meetup in due {
            guard let conversation = try await chat.conversation(meetup.conversationId, on: database.sql) else {
                continue
            }
            let (offer, money, title) = try await acceptedDeal(conversation.id, listing: meetup.listingId)
            let (expiring, expiringMoney) = meetup.state == .accepted ? (offer, money) : (nil, nil)
            let (deals, service) = (deals, self)
            let done: Bool = try await events.transaction(publishing: { db in
                guard try await deals.move(meetup: meetup.id, from: [meetup.state], to: .expired, now: now, on: db)
                else { return (false, []) }
                var refunded: Int64 = 0
                if let expiring, let expiringMoney {
                    refunded = try await service.cancel(expiring, money: expiringMoney, now: now, on: db) ?? 0
                }
                let summary = Wording(
                    title: refunded > 0
                        ? phrase(
                            "The meetup for {title} passed without a handshake; the held money went back to the buyer"
                        )
                        : phrase("The meetup for {title} passed without a handshake"),
                    body: "",
                    values: ["title": title]
                )
                guard meetup.state == .accepted, let changed = try await deals.meetup(meetup.id, on: db)?.dto else {
                    return (true, [])
                }
                var changedOffer: PriceOffer? = nil
                if let expiring { changedOffer = try await deals.offer(expiring.id, on: db)?.dto }
                let link = "/market/conversations/\(conversation.id.uuidString.lowercased())"
                let update = DealUpdate(
                    conversationId: conversation.id,
                    summary: summary.english(kind: .market, link: link).title,
                    offer: changedOffer,
                    meetup: changed
                )
                let event = PlazaEvent(
                    type: MarketEventType.deal,
                    occurredAt: now,
                    data: try JSONValue(encoding: update)
                )
                let alerts = [conversation.buyerId, conversation.sellerId].map {
                    FeedMessage.alert(user: $0, kind: .market, link: link, summary)
                }
                return (true, [.event(audience: [conversation.buyerId, conversation.sellerId], event: event)] + alerts)
            })
            if done { expired += 1 }
        }
        return expired
    }

    // MARK: Helpers

    /// The conversation's accepted offer (nil: none), its money, and the listing's title.
    private func acceptedDeal(
        _ conversation: UUID,
        listing: UUID
    ) async throws -> (DealStore.OfferRecord?, DealMoney?, String) {
        guard
            let offer = try await deals.offers(conversation: conversation, on: database.sql).first(where: {
                $0.state == .accepted
            })
        else {
            return (nil, nil, try await listings.listing(listing, on: database.sql)?.title ?? "the item")
        }
        let money = try await dealMoney(offer)
        return (offer, money, money.title)
    }

    /// Which stored hash the buyer's confirmation must match: a typed code, or a scanned token whose signature holds.
    private func matchingHash(
        _ id: UUID,
        _ confirmation: HandshakeConfirmation
    ) throws -> (column: String, hash: String, field: String) {
        if let token = confirmation.token?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty {
            let parts =
                token.hasPrefix("plaza:handshake:")
                ? token.dropFirst("plaza:handshake:".count).split(separator: ".") : []
            guard parts.count == 3, parts[0] == id.uuidString.lowercased(),
                Secrets.constantTimeEquals(String(parts[2]), signature(id, String(parts[1])))
            else {
                throw PlazaError(
                    .unprocessableContent,
                    .invalidCode,
                    phrase("This QR code is not this meetup's handshake."),
                    detail: phrase("Scan the code on the seller's phone, or type its six digits."),
                    errors: [FieldError(field: "token", message: phrase("Not this meetup's handshake."))]
                )
            }
            return ("token_hash", secrets.hash("handshake-token:\(parts[1])"), "token")
        }
        guard let code = confirmation.code.flatMap(DealRules.normalizedCode) else {
            throw PlazaError(
                .unprocessableContent,
                .invalidCode,
                phrase("Type the six digits on the seller's phone."),
                detail: phrase("Or scan its QR code."),
                errors: [FieldError(field: "code", message: phrase("Six digits."))]
            )
        }
        return ("code_hash", codeHash(id, code), "code")
    }

    private func codeHash(_ id: UUID, _ code: String) -> String {
        secrets.hash("handshake-code:\(id.uuidString.lowercased()):\(code)")
    }

    /// The token's signature: a keyed hash of the meetup and the nonce, shortened.
    private func signature(_ id: UUID, _ nonce: String) -> String {
        String(secrets.hash("handshake-signature:\(id.uuidString.lowercased()):\(nonce)").prefix(32))
    }

    static func requireWindow(_ meetup: DealStore.MeetupRecord, now: Date) throws {
        guard meetup.state == .accepted else {
            throw meetupConflict(
                meetup,
                meetup.state == .completed ? phrase("This handshake is done: the item is sold.") : nil
            )
        }
        guard now >= meetup.windowStart, now < meetup.windowEnd else {
            var error = PlazaError(
                .conflict,
                .stateConflict,
                now < meetup.windowStart
                    ? phrase("The handshake opens 30 minutes before the meetup.")
                    : phrase("This meetup's window has passed."),
                detail: now < meetup.windowStart
                    ? phrase("Come back when you are there.") : phrase("Propose another meetup in the conversation.")
            )
            error.currentState = meetup.state.rawValue
            throw error
        }
    }
}
