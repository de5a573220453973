import Foundation
import Hummingbird
import PlazaCore

/// The deal on a conversation's page: the price offer and its answers, paying into Plaza's hold, the meetup (proposed
/// on a map of the campus's safe spots), the seller's handshake QR and the buyer's code. Each form posts, then returns
/// to the conversation with a sentence saying what happened; the deal card reloads live when the other side acts.
extension MarketPages {
    func addDealRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("conversations/:id/deal", use: dealFragment)
        signedIn.post("conversations/:id/offers", use: offerPage)
        signedIn.post("conversations/:id/meetups", use: proposePage)
        signedIn.get("offers/:id/review", use: payConfirm)
        signedIn.post("offers/:id/:action", use: offerAction)
        signedIn.post("meetups/:id/handshake", use: handshakePage)
        signedIn.get("meetups/:id/status", use: handshakeStatus)
        signedIn.post("meetups/:id/confirm", use: confirmPage)
        signedIn.post("meetups/:id/:action", use: meetupAction)
        signedIn.post("conversations/:id/rating", use: ratePage)
        addBiddingRoutes(to: signedIn)
    }

    static let dealNotices = [
        "offered": phrase("Offer sent: {other} answers here, and you hear about it."),
        "countered": phrase("Your price is sent: {other} answers here."),
        "accepted": phrase("Accepted: the item is reserved for this deal. Agree on where and when to meet below."),
        "declined": phrase("Declined: {other} is told."),
        "cancelled": phrase(
            "Deal called off: any money held for it went back to the buyer, and the item is for sale again."
        ),
        "paid": phrase("Paid: Plaza holds the money until you confirm the handshake at your meetup."),
        "proposed": phrase("Meetup proposed: {other} accepts or proposes another."),
        "meetup-accepted": phrase("Meetup agreed. On the day, the seller shows a code that the buyer scans or types."),
        "meetup-declined": phrase("Meetup declined: propose another time or place if you like."),
        "meetup-cancelled": phrase("Meetup called off."),
        "sharing":
            phrase(
                "{other} sees where you are from 15 minutes before the meetup until the handshake (only where you are then, never your history)."
            ),
        "unsharing": phrase("You no longer show {other} where you are."),
        "bought": phrase("Handshake confirmed: it is yours. Rate each other once you are home."),
        "rated": phrase("Thanks: your rating shows to {other} once they rate you too, or in a week."),
        "rated-both": phrase("Thanks: you have both rated, and both ratings are on your profiles now."),
        "bought-paid": phrase("Handshake confirmed: the item is yours, and {other} has the money Plaza held."),
    ]

    // MARK: The deal card

    struct OfferView: Sendable {
        var id: String
        var headline: String
        var detail: String?
        /// The other side named the price last: I accept, decline or counter.
        var myTurn: Bool
        var counter: String
        var canPay: Bool
        var payLabel: String
        var key: String
        var canCancel: Bool
        var cancelLabel: String
    }

    struct MeetupView: Sendable {
        var id: String
        var headline: String
        var detail: String?
        var myTurn: Bool
        var canCancel: Bool
        var accepted: Bool
        /// The seller, in the window: "Show the handshake code".
        var canShow: Bool
        /// The buyer, in the window: the code form.
        var canConfirm: Bool
        /// An accepted meetup: I may show the other side where I am.
        var canShare: Bool
        var sharing: Bool
        /// Where the other side is, when they share now: "Sela M. is 80 m from the meeting point (1 min ago)".
        var otherWhere: String?
        /// The meeting point on a map, with the other side's dot while they share.
        var map: MeetupMap?
    }

    struct MeetupMap: Sendable {
        var center: String
        /// The meeting point as the map's one named marker (JSON).
        var markers: String
        /// "latitude,longitude" of the other side, when they share now.
        var person: String?
        var personLabel: String?
        var layers: PlacesPages.MapLayers
    }

    struct DealView: Sendable {
        var id: String
        var csrf: String
        var offer: OfferView?
        var canOffer: Bool
        var asking: String
        var currency: String
        var meetup: MeetupView?
        var rating: RatingView?
        var closed: String?
        var form: FormState
        var counterForm: FormState
        var handshakeForm: FormState
    }

    /// The deal as `identity` sees it: what waits for whom, and the buttons that are theirs to press.
    func dealView(
        _ context: AuthenticatedContext,
        conversation: Conversation,
        now: Date = Date()
    ) async throws -> DealView {
        let identity = context.identity
        let reader = context.reader
        let me = identity.user.username
        let seller = conversation.seller.username == me
        let other = seller ? conversation.buyer : conversation.seller
        let otherName = Person(username: other.username, displayName: other.displayName).shortName
        let deal = try await market.deal(identity, conversation: conversation.id)
        let open = [.active, .reserved].contains(conversation.listing.state)
        let offer = deal.offers.first { $0.state.isOpen } ?? deal.offers.first { $0.state == .completed }
        let offerView = offer.map { offer -> OfferView in
            let money = reader.money(offer.amount, offer.currency)
            let mine = offer.proposedBy == me
            let words = ["money": money, "name": otherName]
            var view = OfferView(
                id: offer.id.uuidString.lowercased(),
                headline: "",
                myTurn: offer.state.isOpen && offer.state != .accepted && !mine,
                counter: Reader.typed(Money(amount: offer.amount, currency: offer.currency)),
                canPay: false,
                payLabel: say("Pay {money} through Plaza", words),
                key: UUID().uuidString,
                canCancel: offer.state.isOpen,
                cancelLabel: offer.state == .accepted ? say("Call the deal off") : say("Withdraw", meaning: "an offer")
            )
            switch offer.state {
            case .pending, .countered:
                view.headline =
                    mine
                    ? say("You offered {money}", words)
                    : offer.state == .countered
                        ? say("{name} asks {money}", words) : say("{name} offers {money}", words)
                view.detail =
                    mine ? say("Waiting for {name}'s answer.", words) : say("Accept, decline, or name another price.")
                if !mine { view.cancelLabel = say("Call the deal off") }
            case .accepted:
                view.headline =
                    seller
                    ? say("Deal: {money}, reserved for {name}", words) : say("Deal: {money}, reserved for you", words)
                switch offer.payment?.state {
                case .held?:
                    view.detail =
                        seller
                        ? say("{name} paid {money} into Plaza's hold: it is yours at the handshake.", words)
                        : say("You paid {money}: Plaza holds it until the handshake.", words)
                default:
                    view.detail =
                        seller
                        ? say("{name} may pay through Plaza before you meet, or pay you at the meetup.", words)
                        : say("Pay through Plaza now (the money is held until the handshake), or pay at the meetup.")
                    view.canPay = !seller
                }
            case .completed:
                view.headline =
                    seller ? say("Sold to {name} for {money}", words) : say("You bought it for {money}", words)
                view.detail = offer.payment?.state == .released ? say("Paid through Plaza at the handshake.") : nil
            default: break
            }
            return view
        }
        let meetup = deal.meetups.first { [.proposed, .accepted, .completed].contains($0.state) }
        let meetupView = meetup.map { meetup -> MeetupView in
            let place = meetup.place.name ?? say("the point on the map")
            let when = "\(reader.day(meetup.at)), \(reader.time(meetup.at))"
            let mine = meetup.proposedBy == me
            let inWindow = meetup.state == .accepted && now >= meetup.windowStart && now < meetup.windowEnd
            var view = MeetupView(
                id: meetup.id.uuidString.lowercased(),
                headline: "\(place) · \(when)",
                myTurn: meetup.state == .proposed && !mine,
                canCancel: [.proposed, .accepted].contains(meetup.state),
                accepted: meetup.state == .accepted,
                canShow: inWindow && seller,
                canConfirm: inWindow && !seller,
                canShare: meetup.state == .accepted,
                sharing: false,
                otherWhere: nil
            )
            if meetup.state != .completed {
                let marker = [
                    [
                        "name": place, "latitude": String(meetup.place.latitude),
                        "longitude": String(meetup.place.longitude),
                    ]
                ]
                view.map = MeetupMap(
                    center: "\(meetup.place.latitude),\(meetup.place.longitude)",
                    markers: (try? String(decoding: JSONEncoder().encode(marker), as: UTF8.self)) ?? "[]",
                    layers: map
                )
            }
            switch meetup.state {
            case .proposed:
                view.detail =
                    mine
                    ? Self.period(say("You proposed it: waiting for {name}", ["name": otherName]))
                    : say("{name} proposes this: accept, or propose another.", ["name": otherName])
            case .accepted:
                view.detail =
                    inWindow
                    ? (seller
                        ? say("Show your handshake code when you hand it over.")
                        : say("Scan the seller's code or type its six digits when you have the item."))
                    : now >= meetup.windowEnd
                        ? say("This meetup's window has passed.")
                        : say(
                            "Agreed. The handshake opens {when}.",
                            ["when": reader.upcoming(meetup.windowStart, now: now)]
                        )
            case .completed: view.detail = say("Handshake done.")
            default: break
            }
            return view
        }
        var meetupShown = meetupView
        if let meetup, meetup.state == .accepted,
            let location = try? await market.meetupLocation(identity, meetup: meetup.id, now: now)
        {
            meetupShown?.sharing = location.sharing
            if let other = location.other {
                let point = Coordinate(latitude: meetup.place.latitude, longitude: meetup.place.longitude)
                let distance = point.distance(to: Coordinate(latitude: other.latitude, longitude: other.longitude))
                meetupShown?.otherWhere =
                    say(
                        "{name} is {distance} from the meeting point ({when})",
                        [
                            "name": otherName, "distance": reader.distance(distance),
                            "when": reader.when(other.recordedAt),
                        ]
                    )
                meetupShown?.map?.person = "\(other.latitude),\(other.longitude)"
                meetupShown?.map?.personLabel = "\(otherName) · \(reader.when(other.recordedAt))"
            } else if location.otherSharing {
                meetupShown?.otherWhere = say(
                    "{name} shares where they are from {time}.",
                    ["name": otherName, "time": reader.time(location.from)]
                )
            }
        }
        let listing = try? await market.listing(identity, conversation.listing.id)
        let closed: String? =
            switch offer?.state == .completed ? .active : conversation.listing.state {
            case .sold:
                listing?.soldTo == me
                    ? say("You bought this.")
                    : listing?.soldTo == nil
                        ? say("Sold.")
                        : seller ? say("Sold to {name}", ["name": otherName]) : say("Sold to someone else.")
            case .removed: say("The seller removed this listing.")
            default: nil
            }
        return DealView(
            id: conversation.id.uuidString.lowercased(),
            csrf: context.csrfToken ?? "",
            offer: offerView,
            canOffer: open && !seller && conversation.listing.price != nil
                && (offer == nil || offer?.state == .completed)
                && conversation.listing.state == .active,
            asking: Reader.typed(conversation.listing.price),
            currency: market.currency,
            meetup: meetupShown,
            rating: conversation.listing.state == .sold
                ? try await ratingView(context, listing: conversation.listing.id, other: otherName) : nil,
            closed: closed,
            form: context.page.form("offer")
                ?? FormState(names: ["amount"]).with("amount", Reader.typed(conversation.listing.price)),
            counterForm: context.page.form("counter")
                ?? FormState(names: ["amount"]).with("amount", offerView?.counter ?? ""),
            handshakeForm: context.page.form("handshake") ?? FormState(names: ["code"])
        )
    }

    @Sendable func dealFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let conversation = try await market.conversation(
            context.identity,
            try Query.id(context.parameters, "id", "conversation")
        )
        return renderer.render("market/conversation-deal", try await dealView(context, conversation: conversation))
    }

    // MARK: Helpers

    static func path(_ conversation: UUID, notice: String? = nil) -> String {
        "/market/conversations/\(conversation.uuidString.lowercased())" + (notice.map { "?notice=\($0)" } ?? "")
    }

    /// Ends a sentence with its period, unless it ends with one already: an abbreviated name ("Sam S.") is the last
    /// word of many ("waiting for Sam S.", never "Sam S..").
    static func period(_ sentence: String) -> String {
        sentence.hasSuffix(".") ? sentence : sentence + "."
    }

    /// A refusal in one sentence: the title, and what to do.
    static func sentence(_ error: PlazaError) -> String {
        [error.errors?.map(\.message).joined(separator: " ") ?? error.title, error.detail].compactMap { $0 }.joined(
            separator: " "
        )
    }
}
