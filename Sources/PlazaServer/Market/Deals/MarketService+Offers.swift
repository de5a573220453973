import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Price offers: a buyer offers, the seller accepts, declines or counters (and the buyer answers a counter); one accepted
/// offer reserves the listing. The buyer may then pay through Plaza: the money is held until the handshake, and goes
/// back if either side cancels or the meetup passes without one. Only the two sides see an offer; anyone else gets 404.
extension MarketService {
    /// Offers a price for a listing (opening the buyer's conversation about it). A newer offer replaces the buyer's
    /// unanswered one.
    func makeOffer(
        _ identity: Identity,
        listing id: UUID,
        _ request: PriceOfferRequest,
        now: Date = Date()
    ) async throws -> PriceOffer {
        let (conversation, _) = try await startConversation(identity, listing: id, now: now)
        guard let listing = try await listings.listing(id, on: database.sql) else {
            throw PlazaError.notFound("listing")
        }
        if try await store.blocked(identity.user.id, listing.sellerId, on: database.sql) { throw Self.blockedError }
        if listing.auction != nil, !listing.auctionClosed {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("This item is sold by bidding."),
                detail: phrase("Place a bid with the most you would pay.")
            )
        }
        guard let price = listing.price, let currency = listing.currency else {
            throw PlazaError(
                .conflict,
                .stateConflict,
                phrase("This item is free: there is no price to offer."),
                detail: phrase("Tell the seller you are interested and agree on a meetup.")
            )
        }
        if let problem = DealRules.amountProblem(request.amount, asking: Money(amount: price, currency: currency)) {
            throw PlazaError.validation([problem])
        }
        let record = DealStore.OfferRecord(
            id: UUID(),
            listingId: id,
            conversationId: conversation.id,
            buyerId: identity.user.id,
            sellerId: listing.sellerId,
            amount: request.amount,
            currency: currency,
            state: .pending,
            proposedBy: identity.user.id,
            createdAt: now,
            updatedAt: now,
            buyerUsername: identity.user.username,
            buyerName: identity.user.displayName,
            proposerUsername: identity.user.username
        )
        let deals = deals
        let earlier = try await deals.offers(listing: id, buyer: identity.user.id, on: database.sql)
            .filter { [.pending, .countered].contains($0.state) }
        let summary = Wording(
            title: phrase("{name} offered {money} for {title}"),
            body: "",
            values: ["name": Self.name(identity.user), "title": listing.title],
            amounts: ["money": Money(amount: request.amount, currency: currency)]
        )
        return try await events.transaction(publishing: { db in
            for offer in earlier {
                _ = try await deals.move(offer.id, from: [.pending, .countered], to: .cancelled, now: now, on: db)
            }
            try await deals.insert(record, on: db)
            let dto = record.dto
            return (
                dto,
                try Self.dealMessages(
                    conversation.id,
                    to: listing.sellerId,
                    from: identity.user.id,
                    summary,
                    offer: dto,
                    now: now
                )
            )
        })
    }

    /// The offers on a listing: all of them for its seller, the caller's own for a buyer.
    func offers(_ identity: Identity, listing id: UUID, now: Date = Date()) async throws -> [PriceOffer] {
        let membership = try await requireStudent(identity, now: now)
        guard let listing = try await listings.listing(id, on: database.sql), listing.campusId == membership.campus.id
        else {
            throw PlazaError.notFound("listing")
        }
        let buyer = listing.sellerId == identity.user.id ? nil : identity.user.id
        return try await deals.offers(listing: id, buyer: buyer, on: database.sql).map(\.dto)
    }

    /// What the side an offer waits for says: accept (which reserves the listing), decline, or counter with a price.
    func answerOffer(
        _ identity: Identity,
        offer id: UUID,
        _ answer: DealRules.Answer,
        amount: Int64? = nil,
        now: Date = Date()
    ) async throws -> PriceOffer {
        _ = try await requireStudent(identity, now: now)
        let offer = try await offerSide(identity, id)
        let side: DealRules.Side = offer.buyerId == identity.user.id ? .buyer : .seller
        guard let state = DealRules.next(offer.state, answer: answer, by: side) else {
            throw Self.offerConflict(offer, answering: side)
        }
        if try await store.blocked(offer.buyerId, offer.sellerId, on: database.sql) { throw Self.blockedError }
        if answer == .counter {
            guard let amount else { throw PlazaError.validation(field: "amount", phrase("Name your price.")) }
            if let problem = DealRules.amountProblem(amount, asking: nil) { throw PlazaError.validation([problem]) }
        }
        let title = try await listings.listing(offer.listingId, on: database.sql)?.title ?? "the item"
        let (deals, listings) = (deals, listings)
        let money = Money(amount: answer == .counter ? amount ?? offer.amount : offer.amount, currency: offer.currency)
        let said =
            switch answer {
            case .accept: phrase("{name} accepted {money} for {title}")
            case .decline: phrase("{name} declined {money} for {title}")
            case .counter: phrase("{name} asks {money} for {title}")
            }
        let summary = Wording(
            title: said,
            body: "",
            values: ["name": Self.name(identity.user), "title": title],
            amounts: ["money": money]
        )
        return try await events.transaction(publishing: { db in
            let counter = answer == .counter ? (amount, identity.user.id) : (nil, nil)
            guard
                try await deals.move(
                    id,
                    from: [offer.state],
                    to: state,
                    amount: counter.0,
                    proposedBy: counter.1,
                    now: now,
                    on: db
                )
            else {
                throw Self.offerConflict(offer, answering: side)
            }
            if state == .accepted,
                !(try await listings.move(offer.listingId, from: [.active], to: .reserved, now: now, on: db))
            {
                throw PlazaError(
                    .conflict,
                    .stateConflict,
                    phrase("This item is reserved for another buyer, or no longer for sale."),
                    detail: phrase(
                        phrase("Its seller accepted another offer; yours stays open in case that one falls through.")
                    )
                )
            }
            guard let changed = try await deals.offer(id, on: db)?.dto else { throw PlazaError.notFound("offer") }
            let other = offer.buyerId == identity.user.id ? offer.sellerId : offer.buyerId
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

    /// The offers and meetups of a conversation, newest first, for either side.
    func deal(_ identity: Identity, conversation id: UUID, now: Date = Date()) async throws -> ConversationDeal {
        _ = try await requireStudent(identity, now: now)
        _ = try await side(identity, id)
        return ConversationDeal(
            offers: try await deals.offers(conversation: id, on: database.sql).map(\.dto),
            meetups: try await deals.meetups(conversation: id, on: database.sql).map(\.dto)
        )
    }

    // MARK: Helpers

    /// The offer when the caller is its buyer or its listing's seller; 404 otherwise.
    func offerSide(_ identity: Identity, _ id: UUID) async throws -> DealStore.OfferRecord {
        guard let offer = try await deals.offer(id, on: database.sql),
            [offer.buyerId, offer.sellerId].contains(identity.user.id)
        else {
            throw PlazaError.notFound("offer")
        }
        return offer
    }

    func dealMoney(_ offer: DealStore.OfferRecord, on db: (any SQLDatabase)? = nil) async throws -> DealMoney {
        let db = db ?? database.sql
        let accounts = AccountStore()
        let buyer = try await accounts.user(id: offer.buyerId, on: db)
        let seller = try await accounts.user(id: offer.sellerId, on: db)
        let title = try await listings.listing(offer.listingId, on: db)?.title ?? "an item"
        return DealMoney(
            deal: offer.id,
            amount: Money(amount: offer.paymentAmount ?? offer.amount, currency: offer.currency),
            buyer: DealParty(
                id: offer.buyerId,
                username: buyer?.username ?? "",
                name: buyer?.displayName ?? "Deleted user"
            ),
            seller: DealParty(
                id: offer.sellerId,
                username: seller?.username ?? "",
                name: seller?.displayName ?? "Deleted user"
            ),
            title: title
        )
    }

    /// A deal's change, live to both sides (its summary in English, as before) and as an alert to `recipient` in
    /// their language.
    static func dealMessages(
        _ conversation: UUID,
        to recipient: UUID,
        from actor: UUID,
        _ summary: Wording,
        offer: PriceOffer? = nil,
        meetup: Meetup? = nil,
        now: Date
    ) throws -> [FeedMessage] {
        let link = "/market/conversations/\(conversation.uuidString.lowercased())"
        let english = summary.english(kind: .market, link: link).title
        let update = DealUpdate(conversationId: conversation, summary: english, offer: offer, meetup: meetup)
        let event = PlazaEvent(type: MarketEventType.deal, occurredAt: now, data: try JSONValue(encoding: update))
        return [
            .event(audience: [recipient, actor], event: event),
            .alert(user: recipient, kind: .market, link: link, summary),
        ]
    }

    static func offerConflict(_ offer: DealStore.OfferRecord, answering side: DealRules.Side?) -> PlazaError {
        let waiting = DealRules.awaiting(offer.state)
        var error =
            if offer.state.isOpen, let waiting, waiting != side {
                PlazaError(
                    .conflict,
                    .stateConflict,
                    waiting == .buyer
                        ? phrase("This offer waits for the buyer's answer.")
                        : phrase("This offer waits for the seller's answer."),
                    detail: phrase("You can call the deal off, or wait for their answer.")
                )
            } else {
                PlazaError(
                    .conflict,
                    .stateConflict,
                    Self.offerIs(offer.state),
                    detail: phrase("Make a new offer if you still want the item.")
                )
            }
        error.currentState = offer.state.rawValue
        return error
    }

    /// "This offer is declined.": a sentence per state, so that each reads in the reader's language.
    static func offerIs(_ state: PriceOfferState) -> String {
        switch state {
        case .pending: phrase("This offer is pending.")
        case .countered: phrase("This offer is countered.")
        case .accepted: phrase("This offer is accepted.")
        case .declined: phrase("This offer is declined.")
        case .cancelled: phrase("This offer is cancelled.")
        case .completed: phrase("This offer is completed.")
        }
    }

    static func name(_ user: UserRecord) -> String {
        Person(username: user.username, displayName: user.displayName).shortName
    }
}
