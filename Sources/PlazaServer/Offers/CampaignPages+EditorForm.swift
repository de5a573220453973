import Foundation
import Hummingbird
import PlazaCore

/// The campaign editor's form: read into a campaign, filled from one or blank for a new one, and who it can reach.
extension CampaignPages {
    /// The campaign the form describes. Unreadable fields are refused together with what the rules find in the rest.
    func content(
        _ form: FormData,
        kind fixed: CampaignKind?,
        reader: Reader,
        now: Date = Date()
    ) throws -> CampaignContent {
        var validator = Validator()
        let kind = fixed ?? CampaignKind(rawValue: form["kind"])
        validator.check(kind != nil, "kind", phrase("Choose an ad or a coupon."))
        func number(_ name: String) -> Int? {
            guard let text = form.optional(name) else { return nil }
            let value = Int(text.filter { $0 != "," && $0 != " " })
            validator.check(value != nil, name, phrase("Type a whole number, or leave it empty."))
            return value
        }
        func moment(_ name: String) -> Date? {
            guard let text = form.optional(name) else { return nil }
            let date = reader.moment(fromInput: text)
            validator.check(date != nil, name, phrase("Pick a day and a time."))
            return date
        }
        func money(_ name: String) -> Money? {
            guard let text = form.optional(name) else { return nil }
            let amount = WalletRules.parseAmount(text, currency: currency)
            validator.check((amount ?? 0) > 0, name, phrase("Type an amount such as 1.50, or leave it empty."))
            return amount.map { Money(amount: $0, currency: currency) }
        }
        let startsAt = moment("startsAt") ?? now
        let endsAt = moment("endsAt")
        if form.optional("endsAt") == nil { validator.check(false, "endsAt", phrase("Pick when the campaign ends.")) }
        let days = (1...7).filter { form["day\($0)"] == "1" }
        let (from, until) = (
            form["from"].trimmingCharacters(in: .whitespaces), form["until"].trimmingCharacters(in: .whitespaces)
        )
        let schedule =
            days.isEmpty && from.isEmpty && until.isEmpty
            ? nil : [CampaignSchedule(weekdays: days, from: from, until: until)]
        if schedule != nil, days.isEmpty {
            validator.check(false, "days", phrase("Tick the days it runs, or clear the hours."))
        }
        let genders = Gender.allCases.filter { form[$0.rawValue] == "1" }
        let target = CampaignTarget(
            ageMin: number("ageMin"),
            ageMax: number("ageMax"),
            genders: genders.isEmpty ? nil : genders,
            studentsOnly: form["studentsOnly"] == "1" ? true : nil,
            radiusMeters: number("radiusMeters"),
            subscribersOnly: form["subscribersOnly"] == "1" ? true : nil,
            pastCustomers: number("pastCustomers")
        )
        var content = CampaignContent(
            kind: kind ?? .coupon,
            title: form["title"].trimmingCharacters(in: .whitespacesAndNewlines),
            body: form["body"].trimmingCharacters(in: .whitespacesAndNewlines),
            startsAt: startsAt,
            endsAt: endsAt ?? startsAt,
            schedule: schedule,
            target: target,
            delivery: CampaignDelivery.allCases.filter { form[$0.rawValue] == "1" }
        )
        if content.kind == .coupon {
            let (percent, amount) = (number("percentOff"), money("amountOff"))
            switch (percent, amount) {
            case (let percent?, nil): content.discount = CouponDiscount(percentOff: percent)
            case (nil, let amount?): content.discount = CouponDiscount(amountOff: amount)
            case (.some, .some):
                validator.check(false, "discount", phrase("Give a percentage or an amount off, not both."))
            case (nil, nil):
                let typed = form.optional("percentOff") != nil || form.optional("amountOff") != nil
                if !typed { validator.check(false, "discount", phrase("Give a percentage or an amount off.")) }
            }
            content.minimumSpend = money("minimumSpend")
            content.maxDiscount = money("maxDiscount")
            content.totalRedemptions = number("totalRedemptions")
            content.perCustomer = number("perCustomer")
            content.code = form.optional("code")?.uppercased()
        }
        guard validator.isValid else {
            let taken = Set(validator.errors.map(\.field))
            let more = CampaignRules.problems(content).map {
                FieldError(field: Self.formField($0.field), message: $0.message)
            }
            throw PlazaError.validation(validator.errors + more.filter { !taken.contains($0.field) })
        }
        return content
    }

    /// The kind and target the form describes so far, for the estimate of who it can reach: what cannot be read yet
    /// (a half-typed age) counts as not set.
    static func reachRequest(_ value: (String) -> String, kind fixed: CampaignKind?) -> CampaignReachRequest {
        func number(_ name: String) -> Int? { Int(value(name).filter { $0 != "," && $0 != " " }) }
        let genders = Gender.allCases.filter { value($0.rawValue) == "1" }
        return CampaignReachRequest(
            kind: fixed ?? CampaignKind(rawValue: value("kind")) ?? .coupon,
            target: CampaignTarget(
                ageMin: number("ageMin"),
                ageMax: number("ageMax"),
                genders: genders.isEmpty ? nil : genders,
                studentsOnly: value("studentsOnly") == "1" ? true : nil,
                subscribersOnly: value("subscribersOnly") == "1" ? true : nil,
                pastCustomers: number("pastCustomers")
            )
        )
    }

    /// "About 40 people match now", or that fewer than 5 do.
    static func reachText(_ reach: CampaignReach, reader: Reader) -> String {
        guard let people = reach.people else { return say("Fewer than 5 people match now.") }
        return say("About {people} people match now.", ["people": people.formatted(.number.locale(reader.locale))])
    }

    /// The form filled with a campaign's content (the editor of an existing campaign).
    static func filled(_ content: CampaignContent, reader: Reader) -> FormState {
        var state = FormState(names: editorFields)
        func set(_ name: String, _ value: String?) { state = state.with(name, value ?? "") }
        func flag(_ name: String, _ on: Bool) { set(name, on ? "1" : "") }
        set("kind", content.kind.rawValue)
        set("title", content.title)
        set("body", content.body)
        set("startsAt", reader.input(content.startsAt))
        set("endsAt", reader.input(content.endsAt))
        let slot = content.schedule?.first
        for day in 1...7 { flag("day\(day)", slot?.weekdays.contains(day) ?? false) }
        set("from", slot?.from)
        set("until", slot?.until)
        let target = content.target
        set("ageMin", target.ageMin.map(String.init))
        set("ageMax", target.ageMax.map(String.init))
        for gender in Gender.allCases { flag(gender.rawValue, target.genders?.contains(gender) ?? false) }
        flag("studentsOnly", target.studentsOnly == true)
        set("radiusMeters", target.radiusMeters.map(String.init))
        flag("subscribersOnly", target.subscribersOnly == true)
        set("pastCustomers", target.pastCustomers.map(String.init))
        for delivery in CampaignDelivery.allCases { flag(delivery.rawValue, content.delivery.contains(delivery)) }
        set("percentOff", content.discount?.percentOff.map(String.init))
        set("amountOff", Reader.typed(content.discount?.money))
        set("minimumSpend", Reader.typed(content.minimumSpend))
        set("maxDiscount", Reader.typed(content.maxDiscount))
        set("totalRedemptions", content.totalRedemptions.map(String.init))
        set("perCustomer", content.perCustomer.map(String.init))
        set("code", content.code)
        return state
    }

    /// A new coupon: from now (so it runs as soon as it is approved) for a week, delivered both ways, one per customer.
    func blank(reader: Reader, kind: CampaignKind, now: Date = Date()) -> FormState {
        let start = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        return FormState(names: Self.editorFields).with("kind", kind.rawValue)
            .with("startsAt", reader.input(start))
            .with("endsAt", reader.input(start.addingTimeInterval(7 * 86_400)))
            .with("automatic", "1").with("manual", "1").with("perCustomer", "1")
    }
}
