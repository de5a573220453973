import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// A business's public page: locations, the popular-times chart of one location, and its line.
extension PlacesPages {
    struct BusinessPage: Sendable {
        struct LocationRow: Sendable {
            var id: String
            var businessId: String
            var name: String
            var address: String
            var selected: Bool
            var hours: String?
        }

        var shell: Shell
        var id: String
        var name: String
        var category: String
        var description: String
        var locations: [LocationRow]
        var location: LocationRow?
        var chart: PopularChart?
        var line: LineView?
        var lineForm: FormState
        var canEdit: Bool
        var isMember: Bool
        /// The business's running loyalty programs, each with "Take this card".
        var programs: [ProgramOffer] = []
        var signedIn = false
        /// Signed in and not of its team: whether the reader gets its offers wherever they are.
        var subscription: SubscriptionView?
        /// "Open now · closes 19:00", "Closed · opens Mon 07:00" (the selected location, in the operator's time zone).
        var openNow: Bool = false
        var openState: String?
        var directions: String?
        var mapLink: String?
        /// Signed in and there in the last 30 minutes: the line form shows.
        var canReportLine = false
    }

    struct LineView: Sendable {
        var current: String?
        var reports: String
        var age: String?
    }

    struct ProgramOffer: Sendable {
        var id: String
        var businessId: String
        var title: String
        var detail: String
        var description: String
        /// Its further levels, card life, minimum spend and end, one sentence each.
        var rules: [String]
        /// The reader's own card of it, instead of "Take this card".
        var held: HeldCard? = nil
    }

    struct HeldCard: Sendable {
        var id: String
        /// "3 of 10 punches" or "Full: show it at the counter".
        var progress: String
    }

    /// A program's rules beyond its first card, as customers read them.
    static func rules(_ program: LoyaltyProgram, reader: Reader) -> [String] {
        var rules = program.levels.map {
            say(
                "Then {punches} for {reward}.",
                ["punches": reader.count($0.punchesRequired, "count.punch"), "reward": $0.reward]
            )
        }
        if let spend = program.minimumSpend {
            rules.append(say("A punch with each purchase of {amount} or more.", ["amount": reader.money(spend)]))
        }
        if program.earnOnPayment {
            switch program.punchesPerPurchase {
            case .one: rules.append(say("Paying with Plaza punches your card by itself."))
            case .per(let unit):
                rules.append(
                    say(
                        "Paying with Plaza punches your card by itself: one punch per {amount}.",
                        ["amount": reader.money(unit)]
                    )
                )
            }
        }
        if let days = program.cardValidDays {
            rules.append(say("A card lasts {days} from its first punch.", ["days": reader.count(days, "count.day")]))
        }
        if let end = program.expiresAt { rules.append(say("Runs until {day}.", ["day": reader.day(end)])) }
        return rules
    }

    /// Anyone: the business, its locations, how busy the chosen one usually is and its line now.
    @Sendable func business(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await renderBusiness(
            request,
            id: try Query.id(context.parameters, "id", "business"),
            identity: context.identity,
            shell: Shell(title: say("Business"), context: context, notice: notice(request)),
            reader: context.reader,
            lineForm: context.page.form("line")
        )
    }

    func renderBusiness(
        _ request: Request,
        id: UUID,
        identity: Identity?,
        shell: Shell,
        reader: Reader,
        lineForm: FormState? = nil
    ) async throws -> Response {
        let business = try await businesses.business(id, viewer: identity)
        let chosen = request.uri.queryParameters.get("location").flatMap(UUID.init(uuidString:))
        let selected = business.locations.first { $0.id == chosen } ?? business.locations.first
        var page = BusinessPage(
            shell: shell,
            id: id.uuidString.lowercased(),
            name: business.name,
            category: Self.categoryName(business.category),
            description: business.description,
            locations: business.locations.map {
                BusinessPage.LocationRow(
                    id: $0.id.uuidString.lowercased(),
                    businessId: id.uuidString.lowercased(),
                    name: $0.name,
                    address: $0.address,
                    selected: $0.id == selected?.id,
                    hours: Self.hours($0.openingHours)
                )
            },
            lineForm: lineForm ?? FormState(names: ["minutes"]),
            canEdit: business.role == .owner,
            isMember: business.role != nil
        )
        page.shell.title = business.name
        page.signedIn = identity != nil
        if business.listed, business.role == nil, let identity {
            page.subscription = SubscriptionView(
                subscribed: try await offers.subscription(identity, business: id) != nil
            )
        }
        if business.listed {
            let running = try await loyalty.programs(business: id, viewer: identity).filter { $0.state == .active }
            var held: [UUID: LoyaltyCard] = [:]
            if let identity { held = try await loyalty.heldCards(identity, programs: running.map(\.id)) }
            page.programs = running.map { program in
                ProgramOffer(
                    id: program.id.uuidString.lowercased(),
                    businessId: id.uuidString.lowercased(),
                    title: program.title,
                    detail: say(
                        "Reward after {punches}: {reward}.",
                        ["punches": reader.count(program.punchesRequired, "count.punch"), "reward": program.reward]
                    ),
                    description: program.description,
                    rules: Self.rules(program, reader: reader),
                    held: held[program.id].map {
                        HeldCard(
                            id: $0.id.uuidString.lowercased(),
                            progress: $0.state == .completed
                                ? say("Your card is full: show it at the counter for {reward}.", ["reward": $0.reward])
                                : say(
                                    "Your card: {punches} of {required}.",
                                    [
                                        "punches": String($0.punches),
                                        "required": reader.count($0.punchesRequired, "count.punch"),
                                    ]
                                )
                        )
                    }
                )
            }
        }
        page.location = page.locations.first { $0.selected }
        if let selected {
            if let state = openState(selected.openingHours) {
                page.openNow = state.open
                page.openState = state.text
            }
            let point = String(format: "%.6f,%.6f", selected.latitude, selected.longitude)
            page.directions = "geo:\(point)?q=\(point)"
            page.mapLink = String(
                format: "/places/map?latitude=%.6f&longitude=%.6f",
                selected.latitude,
                selected.longitude
            )
        }
        // Crowds exist only where customers can find the business (its merchant approved).
        if let selected, business.listed {
            if let identity { page.canReportLine = try await places.canReportLine(identity, location: selected.id) }
            let day = Int(request.uri.queryParameters.get("day") ?? "") ?? nil
            page.chart = PopularChart(
                try await places.popularTimes(location: selected.id),
                weekday: day,
                timeZone: configuration.places.timeZone,
                reader: reader
            )
            let waits = try await places.lineWaits(location: selected.id)
            page.line = LineView(
                current: waits.currentMinutes.map { say("{minutes} min", ["minutes": String($0)]) },
                reports: reader.count(waits.recentReports, "count.recent_report"),
                age: waits.newestReportAgeMinutes.map {
                    $0 == 0 ? say("just now") : say("{minutes} min ago", ["minutes": String($0)])
                }
            )
        }
        return renderer.render("places/business", page)
    }

    /// "Open now · closes 19:00" or "Closed · opens …" from the location's hours (nil without hours).
    func openState(_ hours: [OpeningPeriod], now: Date = Date()) -> (open: Bool, text: String)? {
        guard let state = BusinessRules.openState(hours, at: now, calendar: configuration.places.calendar) else {
            return nil
        }
        let next = Self.nextWords(state.next)
        return (state.open, (state.open ? say("Open now") : say("Closed")) + (next.isEmpty ? "" : " · " + next))
    }

    /// PlazaCore's "closes 19:00", "opens 07:00", "opens Mon 07:00" in the reader's words.
    static func nextWords(_ next: String) -> String {
        let parts = next.split(separator: " ").map(String.init)
        if parts.count == 2, parts[0] == "closes" { return say("closes {time}", ["time": parts[1]]) }
        if parts.count == 2, parts[0] == "opens" { return say("opens {time}", ["time": parts[1]]) }
        if parts.count == 3, parts[0] == "opens" {
            return say("opens {day} {time}", ["day": say(parts[1]), "time": parts[2]])
        }
        return next
    }

    /// "Usually busy at this hour" in the reader's words.
    static func usualWords(_ usual: UsualBusyness) -> String {
        switch usual {
        case .quiet: say("Usually quiet at this hour")
        case .moderate: say("Usually a little busy at this hour")
        case .busy: say("Usually busy at this hour")
        }
    }

    /// "Busier than usual" from a crowd level; nothing without enough data.
    static func busyWords(_ level: String) -> String? {
        switch level {
        case "quieter": say("Quieter than usual")
        case "busier": say("Busier than usual")
        case "usual": say("As busy as usual")
        default: nil
        }
    }

    /// "Mon–Fri 07:00–19:00, Sat 08:00–14:00": runs of days with the same hours are joined.
    /// `typed`: the English day names the editor's field parses back (`BusinessRules.parseOpeningHours`).
    static func hours(_ periods: [OpeningPeriod], typed: Bool = false) -> String? {
        guard !periods.isEmpty else { return nil }
        let days = [
            phrase("Mon"), phrase("Tue"), phrase("Wed"), phrase("Thu"), phrase("Fri"), phrase("Sat"), phrase("Sun"),
        ]
        let sorted = periods.sorted { ($0.day, $0.opens) < ($1.day, $1.opens) }
        var runs: [(first: Int, last: Int, time: String)] = []
        for period in sorted {
            let time = "\(period.opens)–\(period.closes)"
            if let last = runs.last, last.time == time, last.last + 1 == period.day {
                runs[runs.count - 1].last = period.day
            } else {
                runs.append((period.day, period.day, time))
            }
        }
        return runs.map { run in
            let name = { (day: Int) -> String in
                let english = days[max(0, min(6, day - 1))]
                return typed ? english : say(english)
            }
            return (run.first == run.last ? name(run.first) : "\(name(run.first))–\(name(run.last))") + " " + run.time
        }.joined(separator: ", ")
    }

    /// Signed in, at the location in the last 30 minutes: reports the line.
    @Sendable func reportLineWait(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let location = try Query.id(context.parameters, "id", "location")
        let form = try await request.decodeForm(limit: limit)
        let entry = try await places.requireLocation(location)
        let page =
            "/places/businesses/\(entry.location.businessId.uuidString.lowercased())?location=\(location.uuidString.lowercased())"
        do {
            guard let minutes = Int(form["minutes"].trimmingCharacters(in: .whitespaces)) else {
                throw PlazaError.validation(field: "minutes", phrase("Enter the wait in whole minutes."))
            }
            _ = try await places.reportLineWait(context.identity, location: location, LineWaitReport(minutes: minutes))
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "line",
                FormState(form, names: ["minutes"], error: error),
                returnTo: "\(page)#line-heading"
            )
        }
        return PageRenderer.seeOther("\(page)&notice=line")
    }
}

/// The popular-times bar chart of one weekday as SVG geometry (server-drawn, no script needed).
struct PopularChart: Sendable {
    struct Bar: Sendable {
        var x: Int
        var y: Int
        var height: Int
        var label: String
        var hour: String
        var enough: Bool
        var now: Bool
    }

    struct Day: Sendable {
        var number: Int
        var name: String
        var selected: Bool
    }

    static let width = 336
    static let height = 140
    var bars: [Bar]
    var days: [Day]
    var dayName: String
    /// "1 week", "7 weeks".
    var weeks: String
    var anyData: Bool
    var live: String

    init(_ times: PopularTimes, weekday: Int?, timeZone: TimeZone, reader: Reader) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let now = PopularTimesTable.slot(Date(), calendar)
        let day = (1...7).contains(weekday ?? 0) ? weekday! : now.weekday
        let names = [
            phrase("Monday"), phrase("Tuesday"), phrase("Wednesday"), phrase("Thursday"), phrase("Friday"),
            phrase("Saturday"), phrase("Sunday"),
        ]
        let short = [
            phrase("Mon"), phrase("Tue"), phrase("Wed"), phrase("Thu"), phrase("Fri"), phrase("Sat"), phrase("Sun"),
        ]
        let hours = times.days[day - 1].hours.filter { $0.hour >= 6 }
        let peak = max(1, hours.compactMap(\.averageVisits).max() ?? 1)
        let slot = Self.width / hours.count
        bars = hours.enumerated().map { index, hour in
            let value = hour.averageVisits ?? 0
            let height = hour.enoughData ? max(4, Int(Double(Self.height - 20) * value / peak)) : 4
            return Bar(
                x: index * slot + 2,
                y: Self.height - 20 - height,
                height: height,
                label: hour.enoughData
                    ? say(
                        "{hour}:00 — about {visits} visits",
                        ["hour": String(hour.hour), "visits": String(format: "%.1f", value)]
                    )
                    : say("{hour}:00 — not enough data", ["hour": String(hour.hour)]),
                hour: hour.hour % 3 == 0 ? "\(hour.hour)" : "",
                enough: hour.enoughData,
                now: day == now.weekday && hour.hour == now.hour
            )
        }
        days = names.enumerated().map {
            Day(number: $0.offset + 1, name: say(short[$0.offset]), selected: $0.offset + 1 == day)
        }
        dayName = say(names[day - 1])
        weeks = reader.count(times.weeksOfData, "count.week")
        anyData = hours.contains { $0.enoughData }
        switch times.live.level {
        case "quieter": live = say("Quieter than usual right now.")
        case "busier": live = say("Busier than usual right now.")
        case "usual": live = say("About as busy as usual right now.")
        default:
            // The same words as the map and the places list, from the same popular times (issue 39).
            live =
                UsualBusyness.of(times.days, weekday: now.weekday, hour: now.hour).map {
                    PlacesPages.usualWords($0) + "."
                }
                ?? say("Live: not enough data.")
        }
    }
}

extension PlacesPages {
    /// "Get its offers" or "Stop its offers" on a business's page.
    struct SubscriptionView: Sendable {
        var subscribed: Bool
    }
}
