import Foundation
import Hummingbird
import PlazaCore

/// Deals of `openapi.yaml`: price offers (`/v1/market/listings/{id}/offers`, `/v1/market/offers/{id}/*`), paying into
/// Plaza's hold, meetups (`/v1/market/conversations/{id}/meetups`, `/v1/market/meetups/{id}/*`) and the handshake.
struct DealsAPI: Sendable {
    let market: MarketService
    let maxBody: Int

    func addRoutes(to signedIn: SignedInRoutes) {
        let authenticated = signedIn.plain
        authenticated.post("market/listings/:id/offers", use: offer)
        authenticated.get("market/listings/:id/offers", use: offers)
        authenticated.post("market/offers/:id/accept", use: accept)
        authenticated.post("market/offers/:id/decline", use: decline)
        authenticated.post("market/offers/:id/counter", use: counter)
        authenticated.post("market/offers/:id/cancel", use: cancel)
        // The buyer's money into Plaza's hold: the answer is recorded with the money.
        signedIn.money(.recordedWithWork).post("market/offers/:id/pay", use: pay)
        // Bids are exactly-once like money: the answer is recorded with the bid.
        signedIn.money(.recordedWithWork).post("market/listings/:id/bids", use: bid)
        authenticated.get("market/listings/:id/bids", use: bidSteps)
        authenticated.get("market/conversations/:id/deal", use: deal)
        authenticated.get("market/conversations/:id/meetups", use: meetups)
        authenticated.post("market/conversations/:id/meetups", use: propose)
        authenticated.post("market/meetups/:id/accept", use: acceptMeetup)
        authenticated.post("market/meetups/:id/decline", use: declineMeetup)
        authenticated.post("market/meetups/:id/cancel", use: cancelMeetup)
        authenticated.post("market/meetups/:id/handshake", use: handshake)
        authenticated.post("market/meetups/:id/handshake/confirm", use: confirm)
        authenticated.put("market/meetups/:id/location-share", use: share)
        authenticated.get("market/meetups/:id/location", use: location)
    }

    @Sendable func offer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: PriceOfferRequest.self, limit: maxBody)
        return try .json(
            try await market.makeOffer(context.identity, listing: try Self.id(context, "listing"), body),
            status: .created
        )
    }

    @Sendable func offers(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            Page(
                items: try await market.offers(context.identity, listing: try Self.id(context, "listing")),
                nextCursor: nil
            )
        )
    }

    @Sendable func accept(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.answerOffer(context.identity, offer: try Self.id(context, "offer"), .accept))
    }

    @Sendable func decline(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.answerOffer(context.identity, offer: try Self.id(context, "offer"), .decline))
    }

    @Sendable func counter(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: PriceOfferRequest.self, limit: maxBody)
        return try .json(
            try await market.answerOffer(
                context.identity,
                offer: try Self.id(context, "offer"),
                .counter,
                amount: body.amount
            )
        )
    }

    @Sendable func cancel(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.cancelOffer(context.identity, offer: try Self.id(context, "offer")))
    }

    @Sendable func pay(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await market.payOffer(
                context.identity,
                offer: try Self.id(context, "offer"),
                claim: context.idempotencyClaim
            ),
            status: .created
        )
    }

    @Sendable func bid(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: BidRequest.self, limit: maxBody)
        return try .json(
            try await market.placeBid(
                context.identity,
                listing: try Self.id(context, "listing"),
                body,
                claim: context.idempotencyClaim
            ),
            status: .created
        )
    }

    @Sendable func bidSteps(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            Page(
                items: try await market.bids(context.identity, listing: try Self.id(context, "listing")),
                nextCursor: nil
            )
        )
    }

    @Sendable func deal(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.deal(context.identity, conversation: try Self.id(context, "conversation")))
    }

    @Sendable func meetups(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            Page(
                items: try await market.meetups(context.identity, conversation: try Self.id(context, "conversation")),
                nextCursor: nil
            )
        )
    }

    @Sendable func propose(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: MeetupRequest.self, limit: maxBody)
        return try .json(
            try await market.proposeMeetup(context.identity, conversation: try Self.id(context, "conversation"), body),
            status: .created
        )
    }

    @Sendable func acceptMeetup(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.answerMeetup(context.identity, meetup: try Self.id(context, "meetup"), accept: true))
    }

    @Sendable func declineMeetup(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await market.answerMeetup(context.identity, meetup: try Self.id(context, "meetup"), accept: false)
        )
    }

    @Sendable func cancelMeetup(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.cancelMeetup(context.identity, meetup: try Self.id(context, "meetup")))
    }

    @Sendable func handshake(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(
            try await market.handshake(context.identity, meetup: try Self.id(context, "meetup")),
            status: .created
        )
    }

    @Sendable func confirm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: HandshakeConfirmation.self, limit: maxBody)
        return try .json(
            try await market.confirmHandshake(context.identity, meetup: try Self.id(context, "meetup"), body)
        )
    }

    @Sendable func share(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LocationShareRequest.self, limit: maxBody)
        return try .json(
            try await market.shareLocation(context.identity, meetup: try Self.id(context, "meetup"), on: body.on)
        )
    }

    @Sendable func location(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await market.meetupLocation(context.identity, meetup: try Self.id(context, "meetup")))
    }

    static func id(_ context: AuthenticatedContext, _ what: String) throws -> UUID {
        try Query.id(context.parameters, "id", what)
    }
}
