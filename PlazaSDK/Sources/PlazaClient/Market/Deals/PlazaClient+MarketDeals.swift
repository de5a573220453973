import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Price offers

    /// Offers a price for a listing (opening my conversation about it); the seller answers.
    public func offerPrice(_ amount: Int64, listing: UUID) async throws -> PriceOffer {
        try await send(
            "POST",
            "v1/market/listings/\(listing)/offers",
            body: PriceOfferRequest(amount: amount),
            auth: .required
        )
    }

    /// A listing's offers: every one for its seller, mine for a buyer.
    public func priceOffers(listing: UUID) async throws -> [PriceOffer] {
        let page: Page<PriceOffer> = try await send("GET", "v1/market/listings/\(listing)/offers", auth: .required)
        return page.items
    }

    /// Accepts the offer waiting for me (the seller a `pending` one, the buyer a `countered` one): the listing is reserved.
    public func acceptPriceOffer(_ id: UUID) async throws -> PriceOffer {
        try await send("POST", "v1/market/offers/\(id)/accept", auth: .required)
    }

    public func declinePriceOffer(_ id: UUID) async throws -> PriceOffer {
        try await send("POST", "v1/market/offers/\(id)/decline", auth: .required)
    }

    /// Names another price for the offer waiting for me.
    public func counterPriceOffer(_ id: UUID, amount: Int64) async throws -> PriceOffer {
        try await send(
            "POST",
            "v1/market/offers/\(id)/counter",
            body: PriceOfferRequest(amount: amount),
            auth: .required
        )
    }

    /// Calls the deal off: money held for it goes back to the buyer, the listing is for sale again.
    public func cancelPriceOffer(_ id: UUID) async throws -> PriceOffer {
        try await send("POST", "v1/market/offers/\(id)/cancel", auth: .required)
    }

    /// Pays an accepted offer into Plaza's hold; the seller gets it at the handshake. Pass the same key when retrying.
    public func payPriceOffer(_ id: UUID, idempotencyKey: String? = nil) async throws -> DealPayment {
        try await sendMoney("POST", "v1/market/offers/\(id)/pay", idempotencyKey: idempotencyKey)
    }

    // MARK: Meetups and the handshake

    /// A conversation's offers and meetups, newest first.
    public func deal(conversation: UUID) async throws -> ConversationDeal {
        try await send("GET", "v1/market/conversations/\(conversation)/deal", auth: .required)
    }

    /// Proposes a safe spot or a point, and a time; the other side accepts or declines.
    public func proposeMeetup(_ request: MeetupRequest, conversation: UUID) async throws -> Meetup {
        try await send("POST", "v1/market/conversations/\(conversation)/meetups", body: request, auth: .required)
    }

    public func meetups(conversation: UUID) async throws -> [Meetup] {
        let page: Page<Meetup> = try await send(
            "GET",
            "v1/market/conversations/\(conversation)/meetups",
            auth: .required
        )
        return page.items
    }

    public func acceptMeetup(_ id: UUID) async throws -> Meetup {
        try await send("POST", "v1/market/meetups/\(id)/accept", auth: .required)
    }

    public func declineMeetup(_ id: UUID) async throws -> Meetup {
        try await send("POST", "v1/market/meetups/\(id)/decline", auth: .required)
    }

    public func cancelMeetup(_ id: UUID) async throws -> Meetup {
        try await send("POST", "v1/market/meetups/\(id)/cancel", auth: .required)
    }

    /// The seller's handshake for an accepted meetup in its window: show `token` as a QR, or read `code` aloud.
    public func showHandshake(meetup: UUID) async throws -> Handshake {
        try await send("POST", "v1/market/meetups/\(meetup)/handshake", auth: .required)
    }

    /// The buyer's scan (`token`) or typed `code`: the listing is sold to me and my held payment goes to the seller.
    public func confirmHandshake(
        meetup: UUID,
        code: String? = nil,
        token: String? = nil
    ) async throws -> HandshakeResult {
        try await send(
            "POST",
            "v1/market/meetups/\(meetup)/handshake/confirm",
            body: HandshakeConfirmation(code: code, token: token),
            auth: .required
        )
    }
}

extension PlazaClient {
    // MARK: Bidding

    /// Bids up to `maxAmount` on a listing sold by bidding (Plaza bids for me only as far as needed). Pass the same key
    /// when retrying: the bid is placed once.
    public func placeBid(_ maxAmount: Int64, listing: UUID, idempotencyKey: String? = nil) async throws -> PlacedBid {
        try await sendMoney(
            "POST",
            "v1/market/listings/\(listing)/bids",
            body: BidRequest(maxAmount: maxAmount),
            idempotencyKey: idempotencyKey
        )
    }

    /// Every price step of a listing sold by bidding, newest first.
    public func bids(listing: UUID) async throws -> [BidStep] {
        let page: Page<BidStep> = try await send("GET", "v1/market/listings/\(listing)/bids", auth: .required)
        return page.items
    }
}

extension PlazaClient {
    // MARK: Where the other side is

    /// Shows (or stops showing) the other side of an accepted meetup where I am, from 15 minutes before it.
    public func shareLocation(meetup: UUID, on: Bool) async throws -> MeetupLocation {
        try await send(
            "PUT",
            "v1/market/meetups/\(meetup)/location-share",
            body: LocationShareRequest(on: on),
            auth: .required
        )
    }

    /// Where the other side of a meetup is, when they share.
    public func meetupLocation(meetup: UUID) async throws -> MeetupLocation {
        try await send("GET", "v1/market/meetups/\(meetup)/location", auth: .required)
    }
}
