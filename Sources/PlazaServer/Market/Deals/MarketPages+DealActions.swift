import Foundation
import Hummingbird
import PlazaCore

/// What the deal card's forms post: a price and an offer's answers or payment; a meetup proposed, answered or shared.
extension MarketPages {
    // MARK: Offers

    /// The buyer's price, from the deal card.
    @Sendable func offerPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "conversation")
        let conversation = try await market.conversation(context.identity, id)
        do {
            guard let amount = try amount(form["amount"], field: "amount") else {
                throw PlazaError.validation(field: "amount", phrase("Type your price."))
            }
            _ = try await market.makeOffer(
                context.identity,
                listing: conversation.listing.id,
                PriceOfferRequest(amount: amount)
            )
            return PageRenderer.seeOther(Self.path(id, notice: "offered"))
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                "offer",
                FormState(form, names: ["amount"], error: error),
                returnTo: Self.path(id) + "#deal"
            )
        }
    }

    /// Accept, decline, counter, cancel or pay, from the deal card.
    @Sendable func offerAction(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "offer")
        let offer = try await market.offerSide(context.identity, id)
        let back = Self.path(offer.conversationId)
        do {
            switch context.parameters.get("action") ?? "" {
            case "accept": _ = try await market.answerOffer(context.identity, offer: id, .accept)
            case "decline": _ = try await market.answerOffer(context.identity, offer: id, .decline)
            case "cancel": _ = try await market.cancelOffer(context.identity, offer: id)
            case "counter":
                do {
                    guard let amount = try amount(form["amount"], field: "amount") else {
                        throw PlazaError.validation(field: "amount", phrase("Type your price."))
                    }
                    _ = try await market.answerOffer(context.identity, offer: id, .counter, amount: amount)
                } catch let error as PlazaError where error.code == .validationFailed {
                    return renderer.refused(
                        "counter",
                        FormState(form, names: ["amount"], error: error),
                        returnTo: back + "#deal"
                    )
                }
            case "pay":
                do {
                    let user = context.identity.user.id
                    _ = try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                        try await market.idempotency.once(form, action: "market-pay", user: user) { claim in
                            _ = try await market.payOffer(context.identity, offer: id, claim: claim)
                        }
                    }
                } catch let error as PlazaError where error.asksAgain {
                    // The second step is the confirmation page again, with a field for the code.
                    let review = "/market/offers/\(id.uuidString.lowercased())/review"
                    return renderer.refused("pay", FormState(form, error: error), returnTo: review)
                }
            default: throw PlazaError.notFound("action")
            }
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(alert: Self.sentence(error), returnTo: back)
        }
        let action = context.parameters.get("action") ?? ""
        let notice = [
            "accept": "accepted", "decline": "declined", "cancel": "cancelled", "counter": "countered", "pay": "paid",
        ][action]
        return PageRenderer.seeOther(Self.path(offer.conversationId, notice: notice))
    }

    // MARK: Meetups

    /// A safe spot (or a tapped point) and a time, typed in the reader's time zone.
    @Sendable func proposePage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "conversation")
        let names = ["spotId", "latitude", "longitude", "at"]
        do {
            var validator = Validator()
            let at = context.reader.moment(fromInput: form["at"])
            validator.check(at != nil, "at", phrase("Pick a day and a time."))
            let spot = UUID(uuidString: form["spotId"])
            let latitude = Double(form["latitude"].trimmingCharacters(in: .whitespaces))
            let longitude = Double(form["longitude"].trimmingCharacters(in: .whitespaces))
            validator.check(
                spot != nil || (latitude != nil && longitude != nil),
                "spotId",
                phrase("Pick a safe spot, or tap a point on the map.")
            )
            guard validator.isValid, let at else { throw PlazaError.validation(validator.errors) }
            let request =
                spot.map { MeetupRequest(spotId: $0, at: at) }
                ?? MeetupRequest(latitude: latitude, longitude: longitude, at: at)
            _ = try await market.proposeMeetup(context.identity, conversation: id, request)
            return PageRenderer.seeOther(Self.path(id, notice: "proposed"))
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(
                "meetup",
                FormState(form, names: names, error: error),
                returnTo: Self.path(id) + "#meet"
            )
        }
    }

    @Sendable func meetupAction(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "meetup")
        let (meetup, _) = try await market.meetupSide(context.identity, id)
        let action = context.parameters.get("action") ?? ""
        do {
            switch action {
            case "accept": _ = try await market.answerMeetup(context.identity, meetup: id, accept: true)
            case "decline": _ = try await market.answerMeetup(context.identity, meetup: id, accept: false)
            case "cancel": _ = try await market.cancelMeetup(context.identity, meetup: id)
            case "share", "unshare":
                _ = try await market.shareLocation(context.identity, meetup: id, on: action == "share")
            default: throw PlazaError.notFound("action")
            }
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            return renderer.refused(alert: Self.sentence(error), returnTo: Self.path(meetup.conversationId))
        }
        let notice = [
            "accept": "meetup-accepted", "decline": "meetup-declined", "cancel": "meetup-cancelled", "share": "sharing",
            "unshare": "unsharing",
        ][
            action
        ]
        return PageRenderer.seeOther(Self.path(meetup.conversationId, notice: notice))
    }
}
