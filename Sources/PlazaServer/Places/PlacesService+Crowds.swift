import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

extension PlacesService {
    static let popularWindow: TimeInterval = 8 * 7 * 86_400
    static let lineWaitWindow: TimeInterval = 3_600

    func requireLocation(_ id: UUID) async throws -> CatalogEntry {
        try await prepare()
        guard let entry = businesses.catalog.entry(id) else { throw PlazaError.notFound("location") }
        return entry
    }

    /// Average visits per weekday and hour over the last 8 weeks, and now against the usual.
    func popularTimes(location id: UUID, now: Date = Date()) async throws -> PopularTimes {
        let entry = try await requireLocation(id)
        let since = now.addingTimeInterval(-Self.popularWindow)
        let hours = try await stays.visitHours(location: id, since: since, on: database.sql)
        let people = try await stays.people(locations: [id], since: since, on: database.sql)[id] ?? [:]
        let table = PopularTimesTable(hours: hours, people: people, now: now, timeZone: configuration.timeZone)
        let present = presentCount(entry.location, now: now)
        return PopularTimes(
            locationId: id,
            timeZone: configuration.timeZoneName,
            weeksOfData: table.weeks,
            days: table.days,
            live: table.live(count: present, at: now)
        )
    }

    /// People at the location now per the live index (sharing, outside zones, fresh).
    func presentCount(_ location: BusinessLocation, now: Date) -> Int {
        index.presentCount(
            within: Double(location.radiusMeters),
            of: location.coordinate,
            freshSince: now.addingTimeInterval(-PlacesRules.presenceFreshness)
        )
    }

    /// Accepts a line-wait report from someone at the location in the last 30 minutes, once per 15 minutes.
    func reportLineWait(
        _ identity: Identity,
        location id: UUID,
        _ report: LineWaitReport,
        now: Date = Date()
    ) async throws -> LineWaits {
        try identity.requireVerified()
        guard PlacesRules.lineWaitMinutes.contains(report.minutes) else {
            throw PlazaError.validation(
                field: "minutes",
                say("Use 0 to {max} minutes.", ["max": String(PlacesRules.lineWaitMinutes.upperBound)])
            )
        }
        _ = try await requireLocation(id)
        let user = identity.user.id
        try await database.transaction { db in
            guard try await stays.wasPresent(user: user, location: id, since: now.addingTimeInterval(-1_800), on: db)
            else {
                throw PlazaError(
                    .forbidden,
                    .notPresent,
                    phrase("Only people at this place can report its line."),
                    detail: phrase("Share your location and be there within the last 30 minutes.")
                )
            }
            if let last = try await stays.lastLineWait(
                location: id,
                user: user,
                since: now.addingTimeInterval(-900),
                on: db
            ) {
                throw Self.reportedRecently(at: last, now: now)
            }
            try await stays.insertLineWait(location: id, user: user, minutes: report.minutes, at: now, on: db)
        }
        return try await lineWaits(location: id, now: now)
    }

    /// A second report within 15 minutes: say when the first was, not "Too many attempts" (issue 39).
    static func reportedRecently(at last: Date, now: Date) -> PlazaError {
        let wait = max(1, Int(last.addingTimeInterval(900).timeIntervalSince(now).rounded(.up)))
        let minutes = Int(now.timeIntervalSince(last) / 60)
        var error = PlazaError(
            .tooManyRequests,
            .rateLimited,
            minutes < 1 ? say("You reported this line a moment ago.") : sayCount(minutes, "count.reported_line"),
            detail: say("You can report it again {wait}.", ["wait": PlazaError.wait(wait)])
        )
        error.headers[.retryAfter] = String(wait)
        return error
    }

    /// Whether `identity` may report the line at `id` now: they were there in the last 30 minutes.
    func canReportLine(_ identity: Identity, location id: UUID, now: Date = Date()) async throws -> Bool {
        try await stays.wasPresent(
            user: identity.user.id,
            location: id,
            since: now.addingTimeInterval(-1_800),
            on: database.sql
        )
    }

    func lineWaits(location id: UUID, now: Date = Date()) async throws -> LineWaits {
        _ = try await requireLocation(id)
        let reports = try await stays.lineWaits(
            location: id,
            since: now.addingTimeInterval(-Self.popularWindow),
            on: database.sql
        )
        return LineWaitSummary(reports: reports, now: now, timeZone: configuration.timeZone).summary(location: id)
    }

    /// Owners and staff: how many sharing customers are within `radius` of the business's locations now.
    func audience(_ identity: Identity, business: UUID, radius: Double, now: Date = Date()) async throws -> Audience {
        try await prepare()
        try await businesses.requireStaff(identity, of: business)
        let freshSince = now.addingTimeInterval(-PlacesRules.presenceFreshness)
        let locations = businesses.catalog.locations(of: business)
        // One location counts each person once; around several, the same person may be near two of them.
        let count =
            locations.count == 1
            ? index.presentCount(within: radius, of: locations[0].coordinate, freshSince: freshSince)
            : Set(locations.flatMap { index.present(within: radius, of: $0.coordinate, freshSince: freshSince) }).count
        let enough = count >= PlacesRules.minimumCount
        return Audience(radiusMeters: radius, count: enough ? count : nil, enoughData: enough)
    }

    /// How busy each location is now against its usual (`quieter`, `usual`, `busier` or `not_enough_data`) and its
    /// line wait from the last hour's reports: three queries for all of them (the map and the places list).
    func crowdsNow(_ entries: [CatalogEntry], now: Date = Date()) async throws -> [UUID: CrowdNow] {
        let ids = entries.map(\.location.id)
        guard !ids.isEmpty else { return [:] }
        let since = now.addingTimeInterval(-Self.popularWindow)
        let visits = try await stays.visitHours(locations: ids, since: since, on: database.sql)
        let people = try await stays.people(locations: ids, since: since, on: database.sql)
        let waits = try await stays.lineWaits(
            locations: ids,
            since: now.addingTimeInterval(-Self.lineWaitWindow),
            on: database.sql
        )
        var crowds: [UUID: CrowdNow] = [:]
        for entry in entries {
            let table = PopularTimesTable(
                hours: visits[entry.location.id] ?? [],
                people: people[entry.location.id] ?? [:],
                now: now,
                timeZone: configuration.timeZone
            )
            crowds[entry.location.id] = CrowdNow(
                busy: table.live(count: presentCount(entry.location, now: now), at: now).level,
                usual: table.usual(at: now),
                lineWait: LineWaitSummary(
                    reports: waits[entry.location.id] ?? [],
                    now: now,
                    timeZone: configuration.timeZone
                ).currentMinutes
            )
        }
        return crowds
    }

    /// The listed locations among `ids`, with their crowds now (`crowdsNow`).
    func crowdsNow(locations ids: [UUID], now: Date = Date()) async throws -> [UUID: CrowdNow] {
        try await prepare()
        return try await crowdsNow(ids.compactMap { businesses.catalog.entry($0) }, now: now)
    }

    // MARK: Map

    /// Business locations (busy level, line wait) and published dots inside the box.
    func map(
        south: Double,
        west: Double,
        north: Double,
        east: Double,
        only: Set<UUID>? = nil,
        now: Date = Date()
    ) async throws
        -> GeoJSONFeatureCollection<MapFeatureProperties>
    {
        try await prepare()
        let inside = businesses.catalog.inside(south: south, west: west, north: north, east: east)
        let entries = Array(inside.lazy.filter { only?.contains($0.location.businessId) ?? true }.prefix(500))
        let crowds = try await crowdsNow(entries, now: now)
        var features = entries.map { entry in
            GeoJSONFeature(
                coordinate: entry.location.coordinate,
                properties: MapFeatureProperties(
                    kind: "business",
                    businessId: entry.location.businessId,
                    locationId: entry.location.id,
                    name: entry.businessName,
                    category: entry.category,
                    busyNow: crowds[entry.location.id]?.busy,
                    lineWaitMinutes: crowds[entry.location.id]?.lineWait,
                    usualNow: crowds[entry.location.id]?.usual,
                    openNow: BusinessRules.openState(
                        entry.location.openingHours,
                        at: now,
                        calendar: configuration.calendar
                    )?.open
                )
            )
        }
        let dots = index.dots(
            south: south,
            west: west,
            north: north,
            east: east,
            freshSince: now.addingTimeInterval(-PlacesRules.presenceFreshness),
            limit: 2_000
        )
        features += dots.map { GeoJSONFeature(coordinate: $0, properties: MapFeatureProperties(kind: "person")) }
        return GeoJSONFeatureCollection(features: features)
    }
}

/// One location now: how busy against its usual, and the current line wait in minutes (nil without recent reports).
struct CrowdNow: Sendable {
    var busy: String
    /// How busy it usually is at this hour, from the same popular times as the place's page (k-anonymous).
    var usual: UsualBusyness? = nil
    var lineWait: Int?
}

/// Visits per weekday and hour in the operator's time zone, with k-anonymity applied: a cell is shown only when at
/// least `PlacesRules.minimumCount` distinct people made its visits (`people`, keyed `weekday * 24 + hour`).
package struct PopularTimesTable {
    let weeks: Int
    let days: [PopularDay]
    private let calendar: Calendar

    init(hours: [(hourStart: Date, visits: Int)], people: [Int: Int], now: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        let earliest = hours.map(\.hourStart).min()
        // Whole weeks since the first counted hour: four past Mondays of data are four Mondays, not five
        // (rounding up would divide by a week whose slot has not come round yet).
        weeks = earliest.map { min(8, max(1, Int((now.timeIntervalSince($0) / (7 * 86_400)).rounded(.down)))) } ?? 0
        var totals = [[Int]](repeating: [Int](repeating: 0, count: 24), count: 7)
        for (start, visits) in hours {
            let (weekday, hour) = Self.slot(start, calendar)
            totals[weekday - 1][hour] += visits
        }
        let weeks = weeks
        days = (1...7).map { weekday in
            PopularDay(
                weekday: weekday,
                hours: (0..<24).map { hour in
                    let total = totals[weekday - 1][hour]
                    let enough =
                        total >= PlacesRules.minimumCount
                        && people[weekday * 24 + hour, default: 0] >= PlacesRules.minimumCount
                    return PopularHour(
                        hour: hour,
                        averageVisits: enough ? (Double(total) / Double(weeks) * 10).rounded() / 10 : nil,
                        enoughData: enough
                    )
                }
            )
        }
    }

    /// ISO weekday (1 = Monday) and hour of `date`.
    package static func slot(_ date: Date, _ calendar: Calendar) -> (weekday: Int, hour: Int) {
        let parts = calendar.dateComponents([.weekday, .hour], from: date)
        return (((parts.weekday ?? 1) + 5) % 7 + 1, parts.hour ?? 0)
    }

    /// How busy the place usually is in the weekday and hour of `now` (nil without enough data for it).
    func usual(at now: Date) -> UsualBusyness? {
        let (weekday, hour) = Self.slot(now, calendar)
        return UsualBusyness.of(days, weekday: weekday, hour: hour)
    }

    /// The count now against the usual of this weekday and hour; small counts are never shown.
    func live(count: Int, at now: Date) -> LiveBusyness {
        let (weekday, hour) = Self.slot(now, calendar)
        let usual = days[weekday - 1].hours[hour].averageVisits
        guard count >= PlacesRules.minimumCount else {
            return LiveBusyness(level: "not_enough_data", count: nil, usual: usual)
        }
        guard let usual, usual > 0 else { return LiveBusyness(level: "not_enough_data", count: count, usual: nil) }
        let ratio = Double(count) / usual
        let level = ratio < 0.75 ? "quieter" : ratio > 1.25 ? "busier" : "usual"
        return LiveBusyness(level: level, count: count, usual: usual)
    }
}

/// Line-wait reports turned into an estimate (median of the last hour after dropping outliers) and averages.
struct LineWaitSummary {
    let reports: [(minutes: Int, reportedAt: Date)]
    let now: Date
    let timeZone: TimeZone

    /// Reports further than 3 scaled median absolute deviations (at least 5 minutes) from the median are dropped.
    var recent: [Int] {
        let values = reports.filter { now.timeIntervalSince($0.reportedAt) <= PlacesService.lineWaitWindow }.map(
            \.minutes
        )
        guard values.count >= 3 else { return values }
        let median = Self.median(values.map(Double.init))
        let deviation = Self.median(values.map { abs(Double($0) - median) }) * 1.4826
        return values.filter { abs(Double($0) - median) <= max(5, 3 * deviation) }
    }

    var currentMinutes: Int? {
        let kept = recent
        return kept.isEmpty ? nil : Int(Self.median(kept.map(Double.init)).rounded())
    }

    func summary(location: UUID) -> LineWaits {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var slots: [Int: (total: Int, count: Int)] = [:]
        for report in reports {
            let (weekday, hour) = PopularTimesTable.slot(report.reportedAt, calendar)
            slots[weekday * 100 + hour, default: (0, 0)].total += report.minutes
            slots[weekday * 100 + hour, default: (0, 0)].count += 1
        }
        let averages = slots.keys.sorted().map { key in
            LineWaitAverage(
                weekday: key / 100,
                hour: key % 100,
                averageMinutes: (Double(slots[key]!.total) / Double(slots[key]!.count) * 10).rounded() / 10,
                reports: slots[key]!.count
            )
        }
        let newest = reports.map(\.reportedAt).max()
        return LineWaits(
            locationId: location,
            currentMinutes: currentMinutes,
            recentReports: recent.count,
            newestReportAt: newest,
            newestReportAgeMinutes: newest.map { max(0, Int(now.timeIntervalSince($0) / 60)) },
            averages: averages
        )
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
