import Foundation
import Hummingbird
import PlazaCore

/// `/offers?view=town`: the offers running in town, claimable where their targeting admits the reader (issue 39);
/// and the first visit's "turn offers on", since offers from shops one passes are off until the customer says so.
extension OffersPages {
    struct TownRow: Sendable {
        var id: String
        var business: String
        var businessId: String
        var title: String
        var body: String
        var deal: String?
        var ends: String
        var coupon: Bool
        var claimable: Bool
        /// "Claimed: show it at the counter" with a link to the offer, when the reader holds an unused claim.
        var claimed: Bool
        /// Why the reader may not claim it (nil for an ad, which says nothing of claiming).
        var refusal: String?
    }

    static func townRow(_ offer: TownOffer, reader: Reader) -> TownRow {
        TownRow(
            id: offer.id.uuidString.lowercased(),
            business: offer.business.name,
            businessId: offer.business.id?.uuidString.lowercased() ?? "",
            title: offer.title,
            body: offer.body,
            deal: deal(offer.discount, minimum: offer.minimumSpend, cap: offer.maxDiscount, reader: reader),
            ends: say("Ends {day}", ["day": reader.day(offer.endsAt)]),
            coupon: offer.kind == .coupon,
            claimable: offer.claimable && offer.claim == nil,
            claimed: offer.claim != nil,
            refusal: offer.notClaimable.flatMap { $0 == .ad ? nil : Self.refusal($0, business: offer.business.name) }
        )
    }

    /// Why the reader may not claim a town offer (PlazaCore's `sentence` is English).
    static func refusal(_ refusal: TownOfferRefusal, business: String) -> String {
        switch refusal {
        case .ad: say("An ad: there is nothing to claim.")
        case .notForYou:
            say("{business} offers this to customers it chose, and it is not among yours.", ["business": business])
        case .notNow: say("It runs at set hours, and this is not one of them: look again later.")
        case .used: say("You used this coupon already.")
        case .noneLeft: say("No coupon of this offer is left.")
        }
    }

    /// A coupon from the town's list: claimed and shown with its code, or refused beside the list.
    @Sendable func claimInTown(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "offer")
        do {
            _ = try await offers.claimInTown(context.identity, id)
            return PageRenderer.seeOther("/offers/\(id.uuidString.lowercased())?notice=claimed")
        } catch let error as PlazaError where (400..<500).contains(error.status.code) {
            return renderer.refused(alert: error.sentence, returnTo: "/offers?view=town")
        }
    }

    /// "Turn offers on" (or "Not now"), from the first visit's explanation: both are a choice the page then keeps.
    @Sendable func turnOn(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let on = form["choice"] == "on"
        _ = try await offers.changeSettings(
            context.identity,
            on ? OfferSettingsChange(ads: .nearby, coupons: .nearby) : OfferSettingsChange()
        )
        return PageRenderer.seeOther("/offers?notice=\(on ? "turned-on" : "kept-off")")
    }

    /// What the reader's settings let reach them, one sentence.
    static func reach(_ settings: OfferSettings) -> String {
        let level = max(settings.ads, settings.coupons)
        switch level {
        case .none: return say("Offers are off: none reach you.")
        case .subscribed: return say("Offers reach you only from shops you subscribed to.")
        case .nearby: return say("Offers are on: they reach you from shops you subscribed to or come near.")
        case .all: return say("Offers are on: they reach you from shops you subscribed to, come near or paid before.")
        }
    }
}
