import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// The customer's offer pages: `/offers` (current and used offers, search, claim, dismiss, why), `/offers/{id}` (the
/// offer with its claim's code and QR for the counter), and `/offers/settings`. Every action is the API's, through
/// `OffersService`.
struct OffersPages: Sendable {
    let offers: OffersService
    let renderer: PageRenderer
    let maxBody: Int

    static let notices = [
        "claimed": phrase("Claimed. Show this code or its QR at the counter; it waits here until you pay."),
        "dismissed": phrase("Dismissed: this offer will not come back."),
        "muted": phrase("Muted: offers from this business will not come again. Undo it in Offer settings."),
        "saved": phrase("Your offer settings are saved."),
        "unmuted": phrase("Offers from this business may reach you again."),
        "subscribed": phrase("Subscribed: this business's offers reach you wherever you are."),
        "unsubscribed": phrase("Unsubscribed: this business's offers reach you only as your settings allow."),
        "turned-on":
            phrase(
                "Offers are on: coupons and ads from shops you come near now reach you. "
                    + "Change it any time in Offer settings."
            ),
        "kept-off": phrase(
            "Kept as it was: only shops you subscribe to send you offers. Offer settings can change it."
        ),
        "reported": phrase("Thanks, Plaza's team will look at it."),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("offers", context: AuthenticatedContext.self)
        signedIn.get("", use: list)
        signedIn.get("live", use: live)
        signedIn.get("settings", use: settings)
        signedIn.post("settings", use: saveSettings)
        signedIn.post("turn-on", use: turnOn)
        signedIn.post("town/:id/claim", use: claimInTown)
        signedIn.post("settings/unmute/:id", use: unmute)
        signedIn.post("subscriptions/:id", use: subscription)
        signedIn.get(":id", use: offer)
        signedIn.post(":id/claim", use: claim)
        signedIn.post(":id/dismiss", use: dismiss)
        signedIn.post(":id/report", use: report)
    }

    // MARK: Offers

    struct OfferRow: Sendable {
        var id: String
        var business: String
        var businessId: String
        var title: String
        var body: String
        var deal: String?
        var ends: String
        var received: String
        var coupon: Bool
        var claimCode: String?
        var claimState: String?
        var why: String
        var reasons: [String]
    }

    struct ListPage: Sendable {
        var shell: Shell
        var query: String
        var categories: [Choice]
        var history: Bool
        var searching: Bool
        var list: OfferList
        /// The list's own URL, reloaded when an offer arrives or a charge moves a claim.
        var liveURL: String
        /// Offers running in town, whether or not they reached the reader.
        var town: Bool = false
        /// The reader never chose how far offers may reach them: the page explains, with one tap to turn them on.
        var optIn: Bool = false
        /// "Offers reach you only from shops you subscribed to."
        var reach: String = ""
        /// The same search among the offers in town (from mine), or among mine (from the town's).
        var otherSearch: String = ""
    }

    /// The part of `/offers` that follows the events.
    struct OfferList: Sendable {
        var rows: [OfferRow]
        var history: Bool
        var searching: Bool
        var next: String?
        var town: Bool = false
        var townRows: [TownRow] = []
        /// The claim forms' token (the list is also drawn alone, for the live region).
        var csrf: String = ""
    }

    struct Choice: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    /// "10 % off", "$1.50 off · on $5.00 or more · at most $2.00".
    static func deal(_ offer: Offer, reader: Reader) -> String? {
        deal(offer.discount, minimum: offer.minimumSpend, cap: offer.maxDiscount, reader: reader)
    }

    static func deal(_ content: CampaignContent, reader: Reader) -> String? {
        deal(content.discount, minimum: content.minimumSpend, cap: content.maxDiscount, reader: reader)
    }

    static func deal(_ discount: CouponDiscount?, minimum: Money?, cap: Money?, reader: Reader) -> String? {
        guard let discount else { return nil }
        var parts: [String] = []
        if let percent = discount.percentOff { parts.append(say("{percent} % off", ["percent": String(percent)])) }
        if let money = discount.money { parts.append(say("{amount} off", ["amount": reader.money(money)])) }
        if let minimum { parts.append(say("on {amount} or more", ["amount": reader.money(minimum)])) }
        if let cap { parts.append(say("at most {amount}", ["amount": reader.money(cap)])) }
        return parts.joined(separator: " · ")
    }

    static func row(_ offer: Offer, reader: Reader) -> OfferRow {
        let status: String? =
            switch offer.claim?.status {
            case .claimed:
                offer.claim?.chargeId == nil
                    ? say("Claimed: show it at the counter") : say("On a charge waiting for you")
            case .redeemed: say("Used")
            case .expired: say("Expired")
            case nil: nil
            }
        return OfferRow(
            id: offer.id.uuidString.lowercased(),
            business: offer.business.name,
            businessId: offer.business.id?.uuidString.lowercased() ?? "",
            title: offer.title,
            body: offer.body,
            deal: deal(offer, reader: reader),
            ends: say("Ends {day}", ["day": reader.day(offer.endsAt)]),
            received: reader.when(offer.receivedAt),
            coupon: offer.kind == .coupon,
            claimCode: offer.claim?.code,
            claimState: status,
            why: offer.why.text.isEmpty
                ? say("It reached you as your settings allow.")
                : offer.why.text.prefix(1).uppercased() + offer.why.text.dropFirst() + ".",
            reasons: offer.why.reasons.map(\.text)
        )
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = request.uri.queryParameters
        let (list, filters) = try await self.list(request, context)
        let category = try Query.category(request.uri, lenient: true)
        let chosen = try await offers.chosenSettings(context.identity)
        let model = ListPage(
            shell: Shell(
                title: say("Offers"),
                context: context,
                notice: query.get("notice").flatMap { Self.notices[String($0)] }.map { say($0) }
            ),
            query: filters.text,
            categories: BusinessCategory.allCases.map {
                Choice(value: $0.rawValue, label: PlacesPages.categoryName($0), selected: $0 == category)
            },
            history: list.history,
            searching: list.searching,
            list: list,
            liveURL: "/offers/live?\(filters.query)",
            town: list.town,
            optIn: chosen == nil,
            reach: Self.reach(chosen ?? OfferSettings()),
            otherSearch: "/offers?"
                + FormData.encoded(
                    (list.town ? [] : [("view", "town")]) + [
                        ("q", filters.text), ("category", category?.rawValue ?? ""),
                    ]
                )
        )
        return renderer.render("offers/offers", model)
    }

    /// The list alone, for the live region.
    @Sendable func live(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        renderer.render("offers/offers-list", try await list(request, context).list)
    }

    /// The offers the query asks for (`view`, `q`, `category`, `cursor`), and the filters as a query string.
    private func list(
        _ request: Request,
        _ context: AuthenticatedContext
    ) async throws -> (list: OfferList, filters: (text: String, query: String)) {
        let query = request.uri.queryParameters
        let history = query.get("view") == "history"
        let town = query.get("view") == "town"
        let text = query.get("q").map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        let category = try Query.category(request.uri, lenient: true)
        let searching = !text.isEmpty || category != nil
        let cursor = query.get("cursor").map { String($0) }
        if town {
            let found = try await offers.townOffers(
                context.identity,
                text: text.isEmpty ? nil : text,
                category: category,
                limit: 20,
                cursor: cursor
            )
            let filters = [("view", "town"), ("q", text), ("category", category?.rawValue ?? "")]
            let list = OfferList(
                rows: [],
                history: false,
                searching: searching,
                next: found.nextCursor.map { "/offers?\(FormData.encoded(filters + [("cursor", $0)]))" },
                town: true,
                townRows: found.items.map { Self.townRow($0, reader: context.reader) },
                csrf: context.csrfToken ?? ""
            )
            return (list, (text, FormData.encoded(filters)))
        }
        let page =
            searching
            ? try await offers.offers(
                context.identity,
                history: false,
                text: text,
                category: category,
                limit: 20,
                cursor: cursor
            )
            : try await offers.offers(context.identity, history: history, limit: 20, cursor: cursor)
        let filters = [("view", history ? "history" : "current"), ("q", text), ("category", category?.rawValue ?? "")]
        // Cursors are base64: their `+` and `/` must be escaped in a link.
        let list = OfferList(
            rows: page.items.map { Self.row($0, reader: context.reader) },
            history: history && !searching,
            searching: searching,
            next: page.nextCursor.map { "/offers?\(FormData.encoded(filters + [("cursor", $0)]))" }
        )
        return (list, (text, FormData.encoded(filters)))
    }

    @Sendable func claim(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "offer")
        let path = "/offers/\(id.uuidString.lowercased())"
        do {
            _ = try await offers.claim(context.identity, id)
            return PageRenderer.seeOther("\(path)?notice=claimed")
        } catch let error as PlazaError where error.status == .conflict || error.status == .unprocessableContent {
            return renderer.refused(alert: error.sentence, returnTo: path)
        }
    }

    @Sendable func dismiss(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let mute = form["mute"] == "1"
        try await offers.dismiss(context.identity, try Query.id(context.parameters, "id", "offer"), muteBusiness: mute)
        return PageRenderer.seeOther("/offers?notice=\(mute ? "muted" : "dismissed")")
    }

    // MARK: Settings

    struct SettingsPage: Sendable {
        var shell: Shell
        var form: FormState
        var ads: [Choice]
        var coupons: [Choice]
        var useAge: Bool
        var useGender: Bool
        var useStudent: Bool
        var muted: [Muted]
        var subscriptions: [Muted]
    }

    struct Muted: Sendable {
        var id: String
        var name: String
        var detail: String
    }

    static let settingsFields = ["ads", "coupons", "maxPerDay", "quietFrom", "quietUntil"]
    static let levels: [(OfferLevel, String)] = [
        (.none, phrase("None")), (.subscribed, phrase("Only businesses I subscribed to")),
        (.nearby, phrase("Also businesses I come near")), (.all, phrase("Also businesses I come near or paid before")),
    ]

    @Sendable func settings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let current = try await offers.settings(context.identity)
        var form = FormState(names: Self.settingsFields).with("maxPerDay", String(current.maxPerDay))
            .with("quietFrom", current.quietHours?.from ?? "").with("quietUntil", current.quietHours?.until ?? "")
        if let refused = context.page.form("settings") { form = refused }
        let names = try await offers.businessNames(current.muted)
        let subscriptions = try await offers.subscriptions(context.identity, limit: 100, cursor: nil).items
        let choices = { (level: OfferLevel) in
            Self.levels.map { Choice(value: $0.0.rawValue, label: say($0.1), selected: $0.0 == level) }
        }
        let model = SettingsPage(
            shell: Shell(
                title: say("Offer settings"),
                context: context,
                notice: request.uri.queryParameters.get("notice").flatMap { Self.notices[String($0)] }.map { say($0) }
            ),
            form: form,
            ads: choices(current.ads),
            coupons: choices(current.coupons),
            useAge: current.use.age,
            useGender: current.use.gender,
            useStudent: current.use.student,
            muted: current.muted.map {
                Muted(id: $0.uuidString.lowercased(), name: names[$0] ?? say("A business"), detail: "")
            },
            subscriptions: subscriptions.map {
                Muted(
                    id: $0.business.id?.uuidString.lowercased() ?? "",
                    name: $0.business.name,
                    detail: $0.ads && $0.coupons
                        ? say("ads and coupons") : $0.ads ? say("ads") : $0.coupons ? say("coupons") : ""
                )
            }
        )
        return renderer.render("offers/settings", model)
    }

    @Sendable func saveSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        do {
            let from = form["quietFrom"].trimmingCharacters(in: .whitespaces)
            let until = form["quietUntil"].trimmingCharacters(in: .whitespaces)
            guard from.isEmpty == until.isEmpty else {
                throw PlazaError.validation(
                    field: from.isEmpty ? "quietFrom" : "quietUntil",
                    phrase("Give both times, or neither for no quiet hours.")
                )
            }
            guard let maxPerDay = Int(form["maxPerDay"].trimmingCharacters(in: .whitespaces)) else {
                throw PlazaError.validation(field: "maxPerDay", phrase("Use a number from 1 to 20."))
            }
            let change = OfferSettingsChange(
                ads: OfferLevel(rawValue: form["ads"]),
                coupons: OfferLevel(rawValue: form["coupons"]),
                maxPerDay: maxPerDay,
                quietHours: .some(from.isEmpty ? nil : QuietHours(from: from, until: until)),
                use: TargetingUseChange(
                    age: form["useAge"] == "1",
                    gender: form["useGender"] == "1",
                    student: form["useStudent"] == "1"
                )
            )
            _ = try await offers.changeSettings(context.identity, change)
            return PageRenderer.seeOther("/offers/settings?notice=saved")
        } catch var error as PlazaError where error.code == .validationFailed {
            // The API names quiet hours `quietHours.from`; the form's fields are flat.
            error.errors = error.errors?.map {
                FieldError(
                    field: $0.field.replacingOccurrences(of: "quietHours.from", with: "quietFrom").replacingOccurrences(
                        of: "quietHours.until",
                        with: "quietUntil"
                    ),
                    message: $0.message
                )
            }
            return renderer.refused(
                "settings",
                FormState(form, names: Self.settingsFields, error: error),
                returnTo: "/offers/settings"
            )
        }
    }

    @Sendable func unmute(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        let current = try await offers.settings(context.identity)
        _ = try await offers.changeSettings(
            context.identity,
            OfferSettingsChange(muted: current.muted.filter { $0 != id })
        )
        return PageRenderer.seeOther("/offers/settings?notice=unmuted")
    }

    /// Subscribes to a business's offers or stops, from its page or the settings; back where the form was.
    @Sendable func subscription(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        let subscribe = form["subscribe"] == "1"
        if subscribe {
            _ = try await offers.subscribe(context.identity, business: id, SubscriptionRequest())
        } else {
            try await offers.unsubscribe(context.identity, business: id)
        }
        let back = form["back"] == "settings" ? "/offers/settings" : "/places/businesses/\(id.uuidString.lowercased())"
        return PageRenderer.seeOther("\(back)?notice=\(subscribe ? "subscribed" : "unsubscribed")")
    }
}
