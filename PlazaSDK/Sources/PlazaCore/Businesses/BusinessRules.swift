import Foundation

/// The rules of businesses, their locations and opening hours, shared by the server, the pages and the SDK.
/// Each rule returns a message for the user, or `nil` when the value is acceptable.
public enum BusinessRules {
    public static let businessNameLength = 1...100
    public static let descriptionMaximumLength = 2_000
    public static let locationRadius = 10...500
    public static let defaultLocationRadius = 100
    public static let tipPercentRange = 1...50
    public static let tipPercentsMaximumCount = 4
    public static let taxIdMaximumLength = 40

    /// The counter's settings of `UpdateBusinessRequest`: suggested tips, tax registration and tax rate.
    public static func counterProblems(_ request: UpdateBusinessRequest) -> [FieldError] {
        var validator = Validator()
        if let tips = request.tipPercents {
            validator.check(
                tips.count <= tipPercentsMaximumCount && Set(tips).count == tips.count
                    && tips.allSatisfy(tipPercentRange.contains),
                "tipPercents",
                "Suggest up to 4 different tips from 1 to 50 percent."
            )
        }
        if let taxId = request.taxId {
            let trimmed = taxId.trimmingCharacters(in: .whitespacesAndNewlines)
            validator.check(
                trimmed.count <= taxIdMaximumLength
                    && !trimmed.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "taxId",
                "Use at most 40 characters."
            )
        }
        if let rate = request.taxRate {
            validator.check(
                rate.isFinite && (0...50).contains(rate) && taxBasisPoints(rate) != nil,
                "taxRate",
                "Use a rate from 0 to 50 percent with at most two decimals."
            )
        }
        return validator.errors
    }

    /// A tax rate in percent as basis points (19 → 1900, 7.7 → 770); nil with more than two decimals.
    public static func taxBasisPoints(_ rate: Double) -> Int? {
        guard rate.isFinite, (0...50).contains(rate) else { return nil }
        let points = (rate * 100).rounded()
        return abs(points - rate * 100) < 1e-6 ? Int(points) : nil
    }

    /// Open or closed at `date` by `hours` (day 1 is Monday) in `calendar`'s time zone, and when that changes:
    /// ("Open now", "closes 19:00") or ("Closed", "opens Mon 07:00"); nil without hours.
    public static func openState(
        _ hours: [OpeningPeriod],
        at date: Date,
        calendar: Calendar
    ) -> (open: Bool, next: String)? {
        guard !hours.isEmpty else { return nil }
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        let today = ((parts.weekday ?? 2) + 5) % 7 + 1  // Foundation: 1 is Sunday; here 1 is Monday
        let now = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        if let open = hours.first(where: { $0.day == today && $0.opens <= now && now < $0.closes }) {
            return (true, "closes \(open.closes)")
        }
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        for offset in 0...7 {
            let day = (today - 1 + offset) % 7 + 1
            let later = hours.filter { $0.day == day && (offset > 0 || $0.opens > now) }.min { $0.opens < $1.opens }
            if let later {
                return (false, offset == 0 ? "opens \(later.opens)" : "opens \(names[day - 1]) \(later.opens)")
            }
        }
        return (false, "")
    }

    /// What a business is found by: its name and its description, folded.
    public static func searchText(name: String, description: String?) -> String {
        PlacesRules.searchFolded([name, description ?? ""].joined(separator: " "))
    }

    public static func nameProblem(_ name: String, length: ClosedRange<Int> = businessNameLength) -> String? {
        ShownText.problem(name.trimmingCharacters(in: .whitespacesAndNewlines), length: length)
    }

    /// `HH:MM`, 00:00 to 24:00.
    public static func minutesOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]),
            let minutes = Int(parts[1]),
            (0...24).contains(hours), (0...59).contains(minutes), hours * 60 + minutes <= 24 * 60
        else { return nil }
        return hours * 60 + minutes
    }

    /// Every problem of an opening-hours list, keyed by its path (`openingHours.2.opens`).
    public static func openingHoursProblems(_ periods: [OpeningPeriod], field: String = "openingHours") -> [FieldError]
    {
        var validator = Validator()
        validator.check(periods.count <= 28, field, "Use at most 28 periods.")
        for (index, period) in periods.enumerated() where index < 28 {
            validator.check((1...7).contains(period.day), "\(field).\(index).day", "Use 1 (Monday) to 7 (Sunday).")
            validator.check(minutesOfDay(period.opens) != nil, "\(field).\(index).opens", "Use HH:MM.")
            validator.check(minutesOfDay(period.closes) != nil, "\(field).\(index).closes", "Use HH:MM.")
        }
        return validator.errors
    }

    /// Every problem of a location's fields.
    public static func locationProblems(_ request: LocationRequest) -> [FieldError] {
        var validator = Validator()
        validator.apply(nameProblem(request.name), to: "name")
        validator.apply(nameProblem(request.address, length: 1...300), to: "address")
        validator.apply(PlacesRules.latitudeProblem(request.latitude), to: "latitude")
        validator.apply(PlacesRules.longitudeProblem(request.longitude), to: "longitude")
        if let radius = request.radiusMeters {
            validator.check(
                locationRadius.contains(radius),
                "radiusMeters",
                "Use \(locationRadius.lowerBound) to \(locationRadius.upperBound) metres."
            )
        }
        return validator.errors + openingHoursProblems(request.openingHours ?? [])
    }

    /// Reads opening hours as people write them: `Mon-Fri 07:00-19:00, Sat 08:00-14:00` (hyphens or dashes,
    /// day names in English, case-insensitive). `nil` when the text does not read that way.
    public static func parseOpeningHours(_ text: String) -> [OpeningPeriod]? {
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        let normalized = text.lowercased().replacingOccurrences(of: "–", with: "-").replacingOccurrences(
            of: "—",
            with: "-"
        )
        var periods: [OpeningPeriod] = []
        for part in normalized.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let words = part.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count == 2 else { return nil }
            let dayRange = words[0].split(separator: "-")
            let timeRange = words[1].split(separator: "-")
            guard (1...2).contains(dayRange.count), timeRange.count == 2,
                let first = names.firstIndex(of: String(dayRange[0].prefix(3))),
                let last = names.firstIndex(of: String(dayRange[dayRange.count - 1].prefix(3))), first <= last,
                minutesOfDay(String(timeRange[0])) != nil, minutesOfDay(String(timeRange[1])) != nil
            else { return nil }
            periods += (first...last).map {
                OpeningPeriod(day: $0 + 1, opens: String(timeRange[0]), closes: String(timeRange[1]))
            }
        }
        return periods
    }

    /// What an admin reviewing a new merchant reads of their businesses: names, kinds and where customers would find them.
    public static func merchantFindings(
        _ businesses: [(name: String, category: BusinessCategory, locations: [BusinessLocation])]
    ) -> [String] {
        guard !businesses.isEmpty else { return ["No business yet: the merchant creates one next."] }
        return businesses.map { business in
            let kind = business.category.rawValue.capitalized
            guard !business.locations.isEmpty else { return "“\(business.name)” (\(kind)), no location yet." }
            let places = business.locations.map { "\($0.name), \($0.address) (within \($0.radiusMeters) m)" }
            let count = business.locations.count == 1 ? "1 location" : "\(business.locations.count) locations"
            return "“\(business.name)” (\(kind)), \(count): \(places.joined(separator: "; "))."
        }
    }
}
