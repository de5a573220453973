import Foundation

/// The customer as targeting may see them: only the facts they allowed, and nothing of a minor.
public struct OfferAudience: Sendable, Hashable {
    /// Whole years, when a birth date is known.
    public var age: Int?
    public var gender: Gender?
    public var student: Bool
    public var use: TargetingUse
    /// Subscribed to this business for this kind of offer.
    public var subscribed: Bool
    /// When they last paid this business.
    public var lastPaid: Date?

    public init(age: Int?, gender: Gender?, student: Bool, use: TargetingUse, subscribed: Bool, lastPaid: Date? = nil) {
        self.age = age
        self.gender = gender
        self.student = student
        self.use = use
        self.subscribed = subscribed
        self.lastPaid = lastPaid
    }

    public var isMinor: Bool { age.map { $0 < CampaignRules.adultAge } ?? false }
}

/// Where and when a campaign could reach someone.
public struct OfferOccasion: Sendable {
    public var businessName: String
    /// Metres from the campaign's nearest location, when it reached them by place.
    public var distance: Double?
    public var at: Date
    /// The operator's calendar: a schedule's weekdays and hours are the town's.
    public var calendar: Calendar

    public init(businessName: String, distance: Double?, at: Date, calendar: Calendar) {
        self.businessName = businessName
        self.distance = distance
        self.at = at
        self.calendar = calendar
    }
}

/// Whom an offer reaches, and why.
public enum OfferRules {
    /// The criteria `content` matched for `person` on `occasion`, or `nil` when it does not reach them.
    public static func reasons(
        _ content: CampaignContent,
        for person: OfferAudience,
        on occasion: OfferOccasion
    ) -> [OfferReason]? {
        let target = content.target
        // Minors get offers of place and time only, whatever they allowed.
        if person.isMinor, target.profiles { return nil }
        var reasons: [OfferReason] = []
        if target.ageMin != nil || target.ageMax != nil {
            guard person.use.age, let age = person.age, age >= (target.ageMin ?? 0), age <= (target.ageMax ?? .max)
            else { return nil }
            let band =
                switch (target.ageMin, target.ageMax) {
                case (let low?, let high?): "you are between \(low) and \(high)"
                case (let low?, nil): "you are \(low) or older"
                default: "you are \(target.ageMax ?? 0) or younger"
                }
            reasons.append(OfferReason(criterion: .age, text: band))
        }
        if let genders = target.genders, !genders.isEmpty {
            guard person.use.gender, let gender = person.gender, genders.contains(gender) else { return nil }
            reasons.append(OfferReason(criterion: .gender, text: "you told Plaza your gender is \(gender.rawValue)"))
        }
        if target.studentsOnly == true {
            guard person.use.student, person.student else { return nil }
            reasons.append(OfferReason(criterion: .student, text: "you are a student"))
        }
        if target.subscribersOnly == true || person.subscribed {
            guard person.subscribed else { return nil }
            reasons.append(OfferReason(criterion: .subscription, text: "you subscribed to \(occasion.businessName)"))
        }
        if let days = target.pastCustomers {
            guard let paid = person.lastPaid, paid >= occasion.at.addingTimeInterval(-Double(days) * 86_400) else {
                return nil
            }
            reasons.append(
                OfferReason(
                    criterion: .pastCustomer,
                    text: "you paid \(occasion.businessName) in the last \(days) days"
                )
            )
        }
        if let distance = occasion.distance {
            let radius = target.radiusMeters ?? CampaignRules.defaultRadiusMeters
            guard distance <= Double(radius) else { return nil }
            reasons.append(
                OfferReason(criterion: .location, text: "you were within \(radius) m of \(occasion.businessName)")
            )
        }
        if let schedule = content.schedule, !schedule.isEmpty {
            guard let slot = schedule.first(where: { runs($0, at: occasion.at, calendar: occasion.calendar) }) else {
                return nil
            }
            reasons.append(OfferReason(criterion: .schedule, text: describe(slot)))
        }
        return reasons
    }

    /// Whether the customer's own choices let a business's campaign reach them: a level above `none`, the business not
    /// muted, and subscribed to it or (from `nearby` up) near it.
    public static func admits(level: OfferLevel, muted: Bool, subscribed: Bool, near: Bool) -> Bool {
        level != .none && !muted && (subscribed || (level >= .nearby && near))
    }

    /// Whether `content` could reach `person` once they come near the business at an hour it runs: their settings and
    /// the target, wherever they are now. What the campaign editor's estimate counts.
    public static func couldReach(
        _ content: CampaignContent,
        _ person: OfferAudience,
        settings: OfferSettings,
        business: UUID,
        now: Date
    ) -> Bool {
        let muted = settings.muted.contains(business)
        guard admits(level: settings.level(content.kind), muted: muted, subscribed: person.subscribed, near: true)
        else { return false }
        var anytime = content
        anytime.schedule = nil
        let occasion = OfferOccasion(
            businessName: "",
            distance: nil,
            at: now,
            calendar: Calendar(identifier: .gregorian)
        )
        return reasons(anytime, for: person, on: occasion) != nil
    }

    /// "About N people": `nil` under 5, then to the nearest 5 below 100, the nearest 10 below 1,000, two figures above.
    public static func about(_ count: Int) -> Int? {
        guard count >= CampaignStatsRules.minimumCount else { return nil }
        let step =
            switch count {
            case ..<100: 5
            case ..<1_000: 10
            default: Int(pow(10, floor(log10(Double(count))) - 1))
            }
        return max(CampaignStatsRules.minimumCount, (count + step / 2) / step * step)
    }

    /// Whether `at` falls in the slot (an `until` before `from` runs into the next day).
    public static func runs(_ slot: CampaignSchedule, at: Date, calendar: Calendar) -> Bool {
        guard let from = NotificationRules.minutes(slot.from), let until = NotificationRules.minutes(slot.until) else {
            return false
        }
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: at)
        let weekday = ((parts.weekday ?? 1) + 5) % 7 + 1  // Gregorian 1 = Sunday → ISO 7.
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        if from < until { return slot.weekdays.contains(weekday) && minute >= from && minute < until }
        // Past midnight: the evening of a listed day, or the small hours after one.
        let yesterday = weekday == 1 ? 7 : weekday - 1
        return (slot.weekdays.contains(weekday) && minute >= from)
            || (slot.weekdays.contains(yesterday) && minute < until)
    }

    /// "Tuesday and Thursday 7–10".
    public static func describe(_ slot: CampaignSchedule) -> String {
        let names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        let days = slot.weekdays.sorted().compactMap { (1...7).contains($0) ? names[$0 - 1] : nil }
        let list = days.count > 1 ? days.dropLast().joined(separator: ", ") + " and " + days.last! : days.first ?? ""
        return "\(list) \(hour(slot.from))–\(hour(slot.until))"
    }

    private static func hour(_ text: String) -> String {
        guard let minutes = NotificationRules.minutes(text) else { return text }
        return minutes % 60 == 0 ? "\(minutes / 60)" : "\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
    }

    /// A claim's code as typed or scanned: `plaza:coupon:k7px 3m9a` reads `K7PX3M9A`.
    public static func claimCode(_ text: String) -> String {
        var code = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if code.lowercased().hasPrefix("plaza:coupon:") { code = String(code.dropFirst("plaza:coupon:".count)) }
        return code.uppercased().filter { $0.isLetter || $0.isNumber }
    }

    /// Whole years from a `YYYY-MM-DD` birth date to `now`.
    public static func age(birthDate: String?, now: Date) -> Int? {
        guard let text = birthDate, let born = AccountRules.parseBirthDate(text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.dateComponents([.year], from: born, to: now).year
    }

    /// What a coupon takes off `subtotal`, or why it does not apply: the minimum spend, then the discount, capped by
    /// `maxDiscount` and by the subtotal itself. Percentages round to the nearest minor unit, halves up.
    public static func discount(_ content: CampaignContent, subtotal: Money) -> Result<Money, CouponRefusal> {
        guard let discount = content.discount else { return .failure(.notACoupon) }
        let currencies = [discount.currency, content.minimumSpend?.currency, content.maxDiscount?.currency].compactMap {
            $0
        }
        guard currencies.allSatisfy({ $0 == subtotal.currency }) else { return .failure(.otherCurrency(currencies[0])) }
        if let minimum = content.minimumSpend, subtotal.amount < minimum.amount {
            return .failure(.belowMinimumSpend(minimum))
        }
        var off: Int64 =
            if let percent = discount.percentOff {
                // Split so that no subtotal can overflow: (a·100 + b)·p/100 = a·p + b·p/100, halves up.
                (subtotal.amount / 100) * Int64(percent) + ((subtotal.amount % 100) * Int64(percent) + 50) / 100
            } else {
                discount.amountOff ?? 0
            }
        if let cap = content.maxDiscount { off = min(off, cap.amount) }
        return .success(Money(amount: max(0, min(off, subtotal.amount)), currency: subtotal.currency))
    }
}

/// Why a coupon does not apply to a charge.
public enum CouponRefusal: Error, Sendable, Hashable {
    case notACoupon
    case otherCurrency(String)
    case belowMinimumSpend(Money)
}
