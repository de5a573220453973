import Foundation
import Hummingbird
import PlazaCore

/// The campaign editor: a new campaign of the business, or a change to one. What the form cannot read (a time that
/// is none, a word for a number) is refused here by field; the rest is judged by `CampaignRules` in the service, and
/// every problem comes back beside its field.
extension CampaignPages {
    static let weekdayFields = (1...7).map { "day\($0)" }
    static let genderFields = Gender.allCases.map(\.rawValue)
    static let deliveryFields = CampaignDelivery.allCases.map(\.rawValue)
    static let editorFields =
        [
            "kind", "title", "body", "startsAt", "endsAt", "from", "until", "ageMin", "ageMax", "studentsOnly",
            "radiusMeters", "subscribersOnly",
            "pastCustomers", "percentOff", "amountOff", "minimumSpend", "maxDiscount", "totalRedemptions",
            "perCustomer", "code",
        ] + weekdayFields + genderFields + deliveryFields

    /// The API's field names as the form's (Mustache reads dots; the form has one schedule slot).
    static let formNames = [
        "schedule": "days", "schedule.0.weekdays": "days", "schedule.0.from": "from", "schedule.0.until": "until",
        "target.ageMin": "ageMin",
        "target.ageMax": "ageMax", "target.genders": "genders", "target.radiusMeters": "radiusMeters",
        "target.locationIds": "radiusMeters",
        "target.pastCustomers": "pastCustomers", "discount.percentOff": "percentOff", "discount.amountOff": "amountOff",
        "discount.currency": "amountOff", "minimumSpend.amount": "minimumSpend",
        "minimumSpend.currency": "minimumSpend",
        "maxDiscount.amount": "maxDiscount", "maxDiscount.currency": "maxDiscount",
    ]

    static func formField(_ field: String) -> String { formNames[field] ?? field }

    /// The problem with the API's field names turned into the form's.
    static func formError(_ error: PlazaError) -> PlazaError {
        var renamed = error
        renamed.errors = error.errors?.map { FieldError(field: formField($0.field), message: $0.message) }
        return renamed
    }

    // MARK: The page

    struct Choice: Sendable {
        var name: String
        var value: String
        var label: String
        var checked: Bool
    }

    struct EditorPage: Sendable {
        var shell: Shell
        var heading: String
        var action: String
        var back: String
        var backLabel: String
        /// Editing: the kind is the campaign's and cannot change.
        var fixedKind: String?
        var kindValue: String
        var kinds: [Choice]
        var coupon: Bool
        var form: FormState
        var weekdays: [Choice]
        var genders: [Choice]
        /// "Students only" and "Only subscribers" (Mustache reads an empty value as set, so the page gets choices).
        var audience: [Choice]
        var deliveries: [Choice]
        var currency: String
        var timeZone: String
        /// A narrowing of the audience is set: its part of the form opens.
        var hasTarget: Bool
        /// For the page script's preview: the reader's language and time zone, as the server writes them.
        var locale: String
        var preview: OfferCard
        /// Who it can reach, as the form stands; the script asks `reachEndpoint` again as the merchant changes the target.
        var reach: String
        var reachEndpoint: String
        var button: String
    }

    func editorPage(
        _ context: AuthenticatedContext,
        heading: String,
        action: String,
        back: (String, String),
        fixed: CampaignKind?,
        form: FormState,
        business: BusinessRecord
    ) async throws -> EditorPage {
        let reader = context.reader
        let value = { (name: String) in form.fields[name]?.value ?? "" }
        let kind = fixed ?? CampaignKind(rawValue: value("kind")) ?? .coupon
        let reach = try await offers.reach(
            context.identity,
            business: business.id,
            Self.reachRequest(value, kind: fixed)
        )
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = reader.locale
        let symbols = calendar.shortWeekdaySymbols
        let genderNames: [Gender: String] = [
            .female: say("Women"), .male: say("Men"), .other: say("People of another gender"),
        ]
        let deliveryNames: [CampaignDelivery: String] = [
            .automatic: say("Automatically, when a matching customer comes near"),
            .manual: say("When staff push it to the customers in the shop"),
        ]
        return EditorPage(
            shell: Shell(title: heading, context: context),
            heading: heading,
            action: action,
            back: back.0,
            backLabel: back.1,
            fixedKind: fixed.map { $0 == .coupon ? say("Coupon") : say("Ad") },
            kindValue: kind.rawValue,
            kinds: [
                Choice(
                    name: "kind",
                    value: "coupon",
                    label: say("Coupon: a discount customers claim"),
                    checked: kind == .coupon
                ),
                Choice(name: "kind", value: "ad", label: say("Ad: words only, nothing to claim"), checked: kind == .ad),
            ],
            coupon: kind == .coupon,
            form: form,
            weekdays: (1...7).map {
                Choice(name: "day\($0)", value: "1", label: symbols[$0 % 7], checked: value("day\($0)") == "1")
            },
            genders: Gender.allCases.map {
                Choice(
                    name: $0.rawValue,
                    value: "1",
                    label: genderNames[$0] ?? $0.rawValue,
                    checked: value($0.rawValue) == "1"
                )
            },
            audience: [
                Choice(
                    name: "studentsOnly",
                    value: "1",
                    label: say("Students only"),
                    checked: value("studentsOnly") == "1"
                ),
                Choice(
                    name: "subscribersOnly",
                    value: "1",
                    label: say("Only customers who subscribed to your offers"),
                    checked: value("subscribersOnly") == "1"
                ),
            ],
            deliveries: CampaignDelivery.allCases.map {
                Choice(
                    name: $0.rawValue,
                    value: "1",
                    label: deliveryNames[$0] ?? $0.rawValue,
                    checked: value($0.rawValue) == "1"
                )
            },
            currency: currency,
            timeZone: reader.timeZone.identifier,
            hasTarget: (["ageMin", "ageMax", "studentsOnly", "subscribersOnly", "pastCustomers"] + Self.genderFields)
                .contains { !value($0).isEmpty },
            locale: reader.locale.identifier.replacingOccurrences(of: "_", with: "-"),
            preview: preview(form, kind: kind, business: business.name, reader: reader),
            reach: Self.reachText(reach, reader: reader),
            reachEndpoint: "/offers/businesses/\(business.id.uuidString.lowercased())/campaigns/reach",
            button: fixed == nil ? say("Save as a draft") : say("Save the changes")
        )
    }

    /// The offer card as the form stands, so the page shows it before the script takes over.
    func preview(_ form: FormState, kind: CampaignKind, business: String, reader: Reader) -> OfferCard {
        let value = { (name: String) in form.fields[name]?.value ?? "" }
        var content = CampaignContent(
            kind: kind,
            title: value("title"),
            body: value("body"),
            startsAt: Date(),
            endsAt: reader.moment(fromInput: value("endsAt")) ?? Date()
        )
        if kind == .coupon {
            if let percent = Int(value("percentOff")) {
                content.discount = CouponDiscount(percentOff: percent)
            } else if let amount = WalletRules.parseAmount(value("amountOff"), currency: currency) {
                content.discount = CouponDiscount(amountOff: Money(amount: amount, currency: currency))
            }
            content.minimumSpend = WalletRules.parseAmount(value("minimumSpend"), currency: currency).map {
                Money(amount: $0, currency: currency)
            }
        }
        var card = Self.card(content, business: business, reader: reader)
        if value("endsAt").isEmpty { card.ends = nil }
        return card
    }

    // MARK: Handlers

    @Sendable func newCampaign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let business = try await offers.businesses.requireMember(context.identity, of: id)
        let kind = request.uri.queryParameters.get("kind").flatMap { CampaignKind(rawValue: String($0)) } ?? .coupon
        let path = "/offers/businesses/\(id.uuidString.lowercased())/campaigns"
        let model = try await editorPage(
            context,
            heading: say("New campaign"),
            action: path,
            back: (path, say("← Offers and coupons")),
            fixed: nil,
            form: context.page.form("campaign") ?? blank(reader: context.reader, kind: kind),
            business: business
        )
        return renderer.render("offers/campaign-editor", model)
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        do {
            let campaign = try await offers.createCampaign(
                context.identity,
                business: id,
                try content(form, kind: nil, reader: context.reader)
            )
            return PageRenderer.seeOther("\(Self.path(campaign.id))?notice=saved")
        } catch let error as PlazaError where Self.isRefusal(error) {
            return renderer.refused(
                "campaign",
                FormState(form, names: Self.editorFields, error: Self.formError(error)),
                returnTo: "/offers/businesses/\(id.uuidString.lowercased())/campaigns/new"
            )
        }
    }

    /// The estimate of who the form's target can reach, for the page script: `{people, text}`.
    @Sendable func reach(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "business")
        let reach = try await offers.reach(context.identity, business: id, Self.reachRequest({ form[$0] }, kind: nil))
        return try .json(ReachAnswer(people: reach.people, text: Self.reachText(reach, reader: context.reader)))
    }

    struct ReachAnswer: Encodable {
        var people: Int?
        var text: String
    }

    @Sendable func edit(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "campaign")
        let (record, business) = try await offers.member(context.identity, campaign: id)
        let content = record.content
        let model = try await editorPage(
            context,
            heading: say("Edit “{title}”", ["title": content.title]),
            action: Self.path(id),
            back: (Self.path(id), say("← The campaign")),
            fixed: content.kind,
            form: context.page.form("campaign") ?? Self.filled(content, reader: context.reader),
            business: business
        )
        return renderer.render("offers/campaign-editor", model)
    }

    /// Saves the editor through `changeCampaign`: every field is sent (a schedule cleared as none).
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "campaign")
        do {
            let current = try await offers.campaign(context.identity, id)
            let asked = try content(form, kind: current.content.kind, reader: context.reader)
            let change = CampaignChange(
                title: asked.title,
                body: asked.body,
                startsAt: asked.startsAt,
                endsAt: asked.endsAt,
                schedule: asked.schedule ?? [],
                target: asked.target,
                delivery: asked.delivery,
                discount: asked.discount,
                minimumSpend: asked.minimumSpend,
                maxDiscount: asked.maxDiscount,
                totalRedemptions: asked.totalRedemptions,
                perCustomer: asked.perCustomer,
                code: asked.code ?? "",
                // What the merchant emptied goes, rather than staying as it was.
                clear: [
                    asked.minimumSpend == nil ? "minimumSpend" : nil, asked.maxDiscount == nil ? "maxDiscount" : nil,
                    asked.totalRedemptions == nil ? "totalRedemptions" : nil,
                    asked.perCustomer == nil ? "perCustomer" : nil,
                ].compactMap { $0 }
            )
            let saved = try await offers.changeCampaign(context.identity, id, change)
            let notice = saved.state == .draft ? "saved" : saved.state == .submitted ? "resent" : "changed"
            return PageRenderer.seeOther("\(Self.path(id))?notice=\(notice)")
        } catch let error as PlazaError where Self.isRefusal(error) {
            return renderer.refused(
                "campaign",
                FormState(form, names: Self.editorFields, error: Self.formError(error)),
                returnTo: "\(Self.path(id))/edit"
            )
        }
    }
}
