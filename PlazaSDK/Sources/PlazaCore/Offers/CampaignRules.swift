import Foundation

/// The finding codes of the policy lint (stable: clients and admins key on them).
public enum FindingCode {
    public static let targetsMinors = "targets_minors"
    public static let noCap = "no_cap"
    public static let discountOver90 = "discount_over_90"
    public static let radiusUnder50 = "radius_under_50"
    public static let windowEnded = "window_ended"
    public static let stacks = "stacks"
    public static let blockedContent = "blocked_content"
}

/// A campaign's checks: field problems refuse a save, findings are what the policy lint tells the merchant and the admin.
public enum CampaignRules {
    public static let titleMaximumLength = 80
    public static let bodyMaximumLength = 500
    public static let defaultRadiusMeters = 150
    /// Below this a radius is smaller than what a phone's GPS can tell apart.
    public static let smallestSensibleRadius = 50
    public static let adultAge = 18

    /// Every field problem of `content`, in form order (`now`: an end more than five years ahead is refused).
    public static func problems(_ content: CampaignContent, now: Date = Date()) -> [FieldError] {
        var validator = Validator()
        let title = content.title.trimmingCharacters(in: .whitespacesAndNewlines)
        validator.check(!title.isEmpty, "title", "Give the campaign a title.")
        validator.check(title.count <= titleMaximumLength, "title", "Use at most \(titleMaximumLength) characters.")
        let body = content.body.trimmingCharacters(in: .whitespacesAndNewlines)
        validator.check(!body.isEmpty, "body", "Say what the offer is.")
        validator.check(body.count <= bodyMaximumLength, "body", "Use at most \(bodyMaximumLength) characters.")
        validator.check(content.endsAt > content.startsAt, "endsAt", "Must be after the start.")
        validator.end(content.endsAt, "endsAt", now: now)
        for (index, slot) in (content.schedule ?? []).enumerated() {
            let field = "schedule.\(index)"
            validator.check(
                !slot.weekdays.isEmpty && slot.weekdays.allSatisfy { (1...7).contains($0) },
                "\(field).weekdays",
                "List weekdays as 1 (Monday) to 7 (Sunday)."
            )
            validator.check(NotificationRules.minutes(slot.from) != nil, "\(field).from", "Use a time such as 07:00.")
            validator.check(NotificationRules.minutes(slot.until) != nil, "\(field).until", "Use a time such as 10:00.")
            validator.check(slot.from != slot.until, "\(field).until", "Must differ from the start.")
        }
        validator.check((content.schedule ?? []).count <= 14, "schedule", "Use at most 14 time slots.")
        targetProblems(content.target, into: &validator)
        validator.check(!content.delivery.isEmpty, "delivery", "Choose automatic, manual or both.")
        validator.check(Set(content.delivery).count == content.delivery.count, "delivery", "List each way once.")
        switch content.kind {
        case .ad:
            let couponOnly: [(Bool, String)] = [
                (content.discount != nil, "discount"), (content.minimumSpend != nil, "minimumSpend"),
                (content.maxDiscount != nil, "maxDiscount"),
                (content.totalRedemptions != nil, "totalRedemptions"), (content.perCustomer != nil, "perCustomer"),
                (content.code != nil, "code"),
            ]
            for (present, field) in couponOnly {
                validator.check(!present, field, "Only coupons have this; leave it out of an ad.")
            }
        case .coupon:
            couponProblems(content, into: &validator)
        }
        return validator.errors
    }

    private static func targetProblems(_ target: CampaignTarget, into validator: inout Validator) {
        if let ageMin = target.ageMin {
            validator.check((13...120).contains(ageMin), "target.ageMin", "Use an age from 13 to 120.")
        }
        if let ageMax = target.ageMax {
            validator.check((13...120).contains(ageMax), "target.ageMax", "Use an age from 13 to 120.")
        }
        if let ageMin = target.ageMin, let ageMax = target.ageMax {
            validator.check(ageMin <= ageMax, "target.ageMax", "Must be at least the lowest age.")
        }
        if let genders = target.genders {
            validator.check(Set(genders).count == genders.count, "target.genders", "List each gender once.")
        }
        if let radius = target.radiusMeters {
            validator.check((1...50_000).contains(radius), "target.radiusMeters", "Use 1 to 50,000 metres.")
        }
        if let ids = target.locationIds {
            validator.check(
                !ids.isEmpty && ids.count <= 100,
                "target.locationIds",
                "Name 1 to 100 locations, or leave it out for all."
            )
        }
        if let days = target.pastCustomers {
            validator.check((1...365).contains(days), "target.pastCustomers", "Use 1 to 365 days.")
        }
    }

    private static func couponProblems(_ content: CampaignContent, into validator: inout Validator) {
        var currencies: Set<String> = []
        if let discount = content.discount {
            switch (discount.percentOff, discount.amountOff) {
            case (let percent?, nil):
                validator.check(discount.currency == nil, "discount.currency", "A percentage needs no currency.")
                validator.check((1...100).contains(percent), "discount.percentOff", "Use 1 to 100 per cent.")
            case (nil, let amount?):
                validator.check(amount > 0, "discount.amountOff", "Must be more than zero.")
                validator.add(AmountBounds.problem(amount, field: "discount.amountOff"))
                if let currency = discount.currency, Money.isCurrencyCode(currency) {
                    currencies.insert(currency)
                } else {
                    validator.check(false, "discount.currency", "Use a three-letter currency code such as USD.")
                }
            default:
                validator.check(false, "discount", "Give either percentOff or amountOff with a currency.")
            }
        } else {
            validator.check(false, "discount", "A coupon needs a discount: percentOff or amountOff with a currency.")
        }
        for (money, field) in [(content.minimumSpend, "minimumSpend"), (content.maxDiscount, "maxDiscount")] {
            guard let money else { continue }
            validator.check(money.amount > 0, "\(field).amount", "Must be more than zero.")
            validator.add(AmountBounds.problem(money.amount, field: "\(field).amount"))
            validator.check(
                Money.isCurrencyCode(money.currency),
                "\(field).currency",
                "Use a three-letter currency code such as USD."
            )
            currencies.insert(money.currency)
        }
        validator.check(
            currencies.count <= 1,
            "discount",
            "Use one currency for the discount, the minimum spend and the cap."
        )
        if let total = content.totalRedemptions {
            validator.check((1...1_000_000).contains(total), "totalRedemptions", "Use 1 to 1,000,000.")
        }
        if let each = content.perCustomer { validator.check((1...100).contains(each), "perCustomer", "Use 1 to 100.") }
        if let code = content.code {
            validator.check(
                (4...16).contains(code.count)
                    && code.allSatisfy { ($0.isASCII && ($0.isUppercase || $0.isNumber)) || $0 == "-" },
                "code",
                "Use 4 to 16 capital letters, digits or hyphens, such as BREAD-10."
            )
        }
    }

    /// A campaign of the same business whose coupons a customer could hold at once with this one.
    public struct Neighbour: Sendable, Hashable {
        public var title: String
        public var startsAt: Date
        public var endsAt: Date

        public init(title: String, startsAt: Date, endsAt: Date) {
            self.title = title
            self.startsAt = startsAt
            self.endsAt = endsAt
        }
    }

    /// The policy lint, run at every save; a `block` finding refuses a submission.
    public static func findings(
        _ content: CampaignContent,
        neighbours: [Neighbour],
        blockedWords: [String],
        now: Date
    ) -> [CampaignFinding] {
        var found: [CampaignFinding] = []
        let target = content.target
        let asksAboutThePerson =
            target.ageMin != nil || target.ageMax != nil || !(target.genders ?? []).isEmpty
            || target.studentsOnly == true
        if asksAboutThePerson, (target.ageMin ?? 0) < adultAge {
            found.append(
                CampaignFinding(
                    code: FindingCode.targetsMinors,
                    severity: .block,
                    field: "target.ageMin",
                    message:
                        "Age, gender or student criteria could reach people under \(adultAge), who are never profiled. Set the lowest age to "
                        + "\(adultAge) or more, or target by place and time only."
                )
            )
        }
        if content.kind == .coupon, content.totalRedemptions == nil {
            found.append(
                CampaignFinding(
                    code: FindingCode.noCap,
                    severity: .warn,
                    field: "totalRedemptions",
                    message: "Nothing caps how many of these coupons are claimed in all: set totalRedemptions."
                )
            )
        }
        if let percent = content.discount?.percentOff, percent > 90 {
            found.append(
                CampaignFinding(
                    code: FindingCode.discountOver90,
                    severity: .warn,
                    field: "discount.percentOff",
                    message: "A discount of \(percent) % gives nearly everything away; check it is meant."
                )
            )
        }
        if let radius = target.radiusMeters, radius < smallestSensibleRadius {
            found.append(
                CampaignFinding(
                    code: FindingCode.radiusUnder50,
                    severity: .warn,
                    field: "target.radiusMeters",
                    message:
                        "A radius of \(radius) m is below what a phone's GPS can tell apart; \(smallestSensibleRadius) m or more works."
                )
            )
        }
        if content.endsAt <= now {
            found.append(
                CampaignFinding(
                    code: FindingCode.windowEnded,
                    severity: .block,
                    field: "endsAt",
                    message: "This campaign's window has already ended."
                )
            )
        }
        if content.kind == .coupon {
            let overlapping = neighbours.filter { $0.startsAt < content.endsAt && content.startsAt < $0.endsAt }.map {
                "“\($0.title)”"
            }
            if !overlapping.isEmpty {
                found.append(
                    CampaignFinding(
                        code: FindingCode.stacks,
                        severity: .warn,
                        field: "startsAt",
                        message: "Customers could hold this coupon and \(overlapping.joined(separator: ", ")) at once: "
                            + "the discounts would stack."
                    )
                )
            }
        }
        if let problem = contentProblem(title: content.title, body: content.body, blockedWords: blockedWords) {
            found.append(
                CampaignFinding(
                    code: FindingCode.blockedContent,
                    severity: .block,
                    field: problem.field,
                    message: problem.message
                )
            )
        }
        return found
    }

    /// A link, or a word of the operator's blocked list, in the title or the body.
    static func contentProblem(title: String, body: String, blockedWords: [String]) -> (field: String, message: String)?
    {
        for (field, text) in [("title", title), ("body", body)] {
            let lower = text.lowercased()
            if lower.contains("http://") || lower.contains("https://") || lower.contains("www.") {
                return (field, "Links are not allowed in offers: customers open the offer in Plaza.")
            }
            let words = Set(lower.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
            if let word = blockedWords.first(where: { words.contains($0.lowercased()) }) {
                return (field, "“\(word)” is on this Plaza's list of words offers may not use.")
            }
        }
        return nil
    }
}
