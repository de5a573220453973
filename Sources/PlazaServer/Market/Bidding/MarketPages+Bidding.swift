import Foundation
import Hummingbird
import PlazaCore

/// A listing sold by bidding on its page: where the bidding stands, my bid form, the latest price steps, live.
extension MarketPages {
    struct BidRow: Sendable {
        var bidder: String
        var amount: String
        var proxy: Bool
        var when: String
    }

    /// A listing sold by bidding: where it stands, my bid form, the latest price steps.
    struct BiddingView: Sendable {
        var id: String
        var csrf: String
        var current: String
        var count: String
        var ends: String
        var reserve: String?
        var leading: Bool
        var closed: Bool
        var canBid: Bool
        var minimum: String
        var key: String
        var form: FormState
        var steps: [BidRow]
    }

    func biddingView(_ context: AuthenticatedContext, listing: Listing) async throws -> BiddingView? {
        guard let bidding = listing.bidding else { return nil }
        let reader = context.reader
        let currency = listing.price?.currency ?? market.currency
        let steps = try await market.bids(context.identity, listing: listing.id).prefix(5).map {
            BidRow(
                bidder: $0.bidder,
                amount: reader.money($0.amount, currency),
                proxy: $0.proxy,
                when: reader.when($0.at)
            )
        }
        let mine = listing.seller.username == context.identity.user.username
        return BiddingView(
            id: listing.id.uuidString.lowercased(),
            csrf: context.csrfToken ?? "",
            current: reader.money(bidding.currentPrice, currency),
            count: reader.count(bidding.bidCount, "count.bid"),
            ends: say(
                bidding.closed ? phrase("Ended {when}") : phrase("Ends {when}"),
                ["when": reader.when(bidding.endsAt)]
            ),
            reserve: bidding.bidCount == 0 ? nil : bidding.reserveMet ? say("Reserve met") : say("Reserve not met yet"),
            leading: bidding.leading,
            closed: bidding.closed,
            canBid: !mine && !bidding.closed && listing.state == .active,
            minimum: Reader.typed(Money(amount: bidding.minimumBid, currency: currency)),
            key: UUID().uuidString,
            form: context.page.form("bid") ?? FormState(names: ["maxAmount"]),
            steps: Array(steps)
        )
    }

    func addBiddingRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.get("listings/:id/bidding", use: biddingFragment)
        signedIn.post("listings/:id/bids", use: bidPage)
    }

    /// The listing page's bidding box, reloaded live on `market.bid`.
    @Sendable func biddingFragment(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let listing = try await market.listing(context.identity, try Query.id(context.parameters, "id", "listing"))
        guard let view = try await biddingView(context, listing: listing) else { throw PlazaError.notFound("bidding") }
        return renderer.render("market/bidding", view)
    }

    /// The bid form: the most I would pay; a double click or a resubmitted page bids once.
    @Sendable func bidPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "listing")
        let back = "/market/listings/\(id.uuidString.lowercased())"
        do {
            guard let amount = try amount(form["maxAmount"], field: "maxAmount") else {
                throw PlazaError.validation(field: "maxAmount", phrase("Type the most you would pay."))
            }
            _ = try await market.idempotency.once(form, action: "market-bid", user: context.identity.user.id) { claim in
                _ = try await market.placeBid(
                    context.identity,
                    listing: id,
                    BidRequest(maxAmount: amount),
                    claim: claim
                )
            }
            return PageRenderer.seeOther(back + "?notice=bid")
        } catch let error as PlazaError where error.status.code < 500 && error.code != .notFound {
            if error.code == .validationFailed || error.code == .bidTooLow {
                return renderer.refused(
                    "bid",
                    FormState(form, names: ["maxAmount"], error: error),
                    returnTo: back + "#bidding"
                )
            }
            return renderer.refused(alert: Self.sentence(error), returnTo: back)
        }
    }
}
