import Foundation
import Hummingbird
import PlazaCore

/// The merchant's figures (`/loyalty/counter/{businessId}/figures`): a program's months as charts and a table, the
/// cards completed and rewards redeemed lately (with the CSV), and the customers who chose to share their history.
extension LoyaltyPages {
    struct FiguresPage: Sendable {
        var shell: Shell
        var businessId: String
        var name: String
        var programs: [ProgramRow]
        var program: String
        var charts: [MonthChart]
        var months: [MonthRow]
        var history: [HistoryRow]
        /// The history's filters as the form shows them: the business's locations and the days (the reader's).
        var locations: [LocationOption]
        var from: String
        var to: String
        /// The next, older page of the history with the same filters.
        var older: String?
        var csv: String
        var regulars: [RegularRow]
    }

    /// A bar chart of one figure over the months; a withheld month draws a flat grey bar.
    struct MonthChart: Sendable {
        struct Bar: Sendable {
            var x: Int
            var y: Int
            var height: Int
            var label: String
            var month: String
            var shown: Bool
        }

        static let width = 336
        static let height = 140
        var id: String
        var title: String
        var bars: [Bar]

        init(
            id: String,
            title: String,
            unit: String,
            months: [LoyaltyMonth],
            labels: [String],
            value: (LoyaltyMonth) -> Int?,
            reader: Reader
        ) {
            self.id = id
            self.title = title
            let peak = max(1, months.compactMap(value).max() ?? 1)
            let slot = Self.width / max(1, months.count)
            bars = months.enumerated().map { index, month in
                let count = value(month)
                let height = count.map { max(2, Int(Double(Self.height - 20) * Double($0) / Double(peak))) } ?? 4
                return Bar(
                    x: index * slot + 3,
                    y: Self.height - 20 - height,
                    height: height,
                    label: labels[index] + ": " + (count.map { reader.count($0, unit) } ?? say("fewer than 5")),
                    month: String(labels[index].prefix(3)),
                    shown: count != nil
                )
            }
        }
    }

    struct MonthRow: Sendable {
        var month: String
        var punches: String
        var newCards: String
        var completed: String
        var redemptions: String
        var rate: String
        var returning: String
        var days: String
    }

    struct HistoryRow: Sendable {
        var what: String
        var customer: String
        var when: String
        var place: String
    }

    struct LocationOption: Sendable {
        var id: String
        var name: String
        var selected: Bool
    }

    struct RegularRow: Sendable {
        var name: String
        var customer: String
        var detail: String
    }

    @Sendable func figures(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let business = try await loyalty.businesses.business(id, viewer: context.identity)
        guard business.role != nil else { throw PlazaError.forbidden }
        let reader = context.reader
        let programs = try await loyalty.programs(business: id, viewer: context.identity)
        let chosen = request.uri.queryParameters.get("program")?.lowercased()
        let program = programs.first { $0.id.uuidString.lowercased() == chosen } ?? programs.first
        var page = FiguresPage(
            shell: Shell(title: say("Loyalty figures"), context: context),
            businessId: id.uuidString.lowercased(),
            name: business.name,
            programs: programs.map {
                ProgramRow(
                    id: $0.id.uuidString.lowercased(),
                    title: $0.title,
                    detail: "",
                    state: Self.programStateName($0.state),
                    selected: $0.id == program?.id,
                    active: $0.state == .active,
                    paused: $0.state == .paused
                )
            },
            program: program?.title ?? "",
            charts: [],
            months: [],
            history: [],
            locations: [],
            from: "",
            to: "",
            older: nil,
            csv: "/loyalty/counter/\(id.uuidString.lowercased())/history.csv",
            regulars: []
        )
        if let program {
            let analytics = try await loyalty.analytics(
                context.identity,
                business: id,
                program: program.id,
                months: 12,
                zone: reader.timeZone
            )
            let labels = analytics.months.map { Self.monthName($0.month, reader: reader) }
            page.charts = [
                MonthChart(
                    id: "punches",
                    title: say("Punches"),
                    unit: "count.punch",
                    months: analytics.months,
                    labels: labels,
                    value: \.punches,
                    reader: reader
                ),
                MonthChart(
                    id: "cards",
                    title: say("New cards"),
                    unit: "count.new_card",
                    months: analytics.months,
                    labels: labels,
                    value: \.newCards,
                    reader: reader
                ),
                MonthChart(
                    id: "redemptions",
                    title: say("Redemptions"),
                    unit: "count.redemption",
                    months: analytics.months,
                    labels: labels,
                    value: \.redemptions,
                    reader: reader
                ),
            ]
            func count(_ value: Int?) -> String {
                value.map { $0.formatted(.number.locale(reader.locale)) } ?? say("fewer than 5")
            }
            page.months = zip(analytics.months, labels).reversed().map { month, label in
                MonthRow(
                    month: label,
                    punches: count(month.punches),
                    newCards: count(month.newCards),
                    completed: count(month.completedCards),
                    redemptions: count(month.redemptions),
                    rate: month.redemptionRate.map {
                        $0.formatted(.percent.precision(.fractionLength(0)).locale(reader.locale))
                    } ?? "—",
                    returning: count(month.returningCustomers),
                    days: month.averageDaysToComplete.map {
                        say(
                            "{days} d",
                            ["days": $0.formatted(.number.precision(.fractionLength(0...1)).locale(reader.locale))]
                        )
                    }
                        ?? "—"
                )
            }
            let query = request.uri.queryParameters
            let filter = try Self.historyFilter(
                query,
                business: id,
                program: program.id,
                locations: business.locations,
                reader: reader
            )
            let history = try await loyalty.history(
                context.identity,
                filter,
                limit: 20,
                cursor: query.get("cursor").map { String($0) }
            )
            let places = Dictionary(uniqueKeysWithValues: business.locations.map { ($0.id, $0.name) })
            page.history = history.items.map {
                HistoryRow(
                    what: $0.kind == .redeemed ? say("redeemed a reward") : say("filled a card"),
                    customer: $0.customer,
                    when: reader.when($0.occurredAt),
                    place: $0.locationId.flatMap { places[$0] } ?? ""
                )
            }
            page.locations = business.locations.map {
                LocationOption(id: $0.id.uuidString.lowercased(), name: $0.name, selected: $0.id == filter.location)
            }
            (page.from, page.to) = (
                query.get("from").map { String($0) } ?? "", query.get("to").map { String($0) } ?? ""
            )
            let filters = FormData.encoded([
                ("program", program.id.uuidString.lowercased()),
                ("location", filter.location?.uuidString.lowercased() ?? ""), ("from", page.from),
                ("to", page.to),
            ])
            page.older = history.nextCursor.map {
                "/loyalty/counter/\(id.uuidString.lowercased())/figures?\(filters)&\(FormData.encoded([("cursor", $0)]))#history-heading"
            }
            page.csv += "?\(filters)"
        }
        page.regulars = try await loyalty.regulars(context.identity, business: id).map { regular in
            var values = [
                "punches": reader.count(regular.punches, "count.punch"),
                "rewards": reader.count(regular.rewards, "count.reward"),
            ]
            if let last = regular.lastVisit { values["when"] = reader.when(last) }
            return RegularRow(
                name: regular.displayName,
                customer: regular.customer,
                detail: regular.lastVisit == nil
                    ? say("{punches}, {rewards}", values) : say("{punches}, {rewards}, last {when}", values)
            )
        }
        return renderer.render("loyalty/figures", page)
    }

    /// The history as CSV, for the page's download link (the API's `history.csv` with the session's cookie), with the
    /// filters the page shows.
    @Sendable func historyCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "business")
        let business = try await loyalty.businesses.business(id, viewer: context.identity)
        let program = request.uri.queryParameters.get("program").flatMap(UUID.init(uuidString:))
        let filter = try Self.historyFilter(
            request.uri.queryParameters,
            business: id,
            program: program,
            locations: business.locations,
            reader: context.reader
        )
        return .csv(try await loyalty.historyCSV(context.identity, filter), filename: "plaza-loyalty-history.csv")
    }

    /// The page's history filters: a location of the business, and days from `from` to `to` (both included) in the
    /// reader's time zone. A day that is not one is refused, naming the field.
    static func historyFilter(
        _ query: Parameters,
        business: UUID,
        program: UUID?,
        locations: [BusinessLocation],
        reader: Reader
    ) throws -> LoyaltyStore.HistoryFilter {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = reader.timeZone
        func day(_ name: String) throws -> Date? {
            guard let text = query.get(name), !text.isEmpty else { return nil }
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3,
                let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
            else {
                throw PlazaError.validation(field: name, phrase("Pick a day such as 2026-11-26."))
            }
            return date
        }
        let location = query.get("location").flatMap { UUID(uuidString: String($0)) }.flatMap { id in
            locations.first { $0.id == id }?.id
        }
        let until = try day("to").flatMap { calendar.date(byAdding: .day, value: 1, to: $0) }
        return LoyaltyStore.HistoryFilter(
            business: business,
            program: program,
            location: location,
            from: try day("from"),
            to: until
        )
    }

    /// "November 2026" for `2026-11`, in the reader's language.
    static func monthName(_ month: String, reader: Reader) -> String {
        let parts = month.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        guard parts.count == 2, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: 15))
        else { return month }
        return date.formatted(Date.FormatStyle(locale: reader.locale, timeZone: .gmt).month(.wide).year())
    }
}
