import Foundation

/// How busy a location usually is, per weekday and hour, and how busy it is now.
///
/// Counts under `PlacesRules.minimumCount` (k = 5) are never shown: `averageVisits` is then `nil` and
/// `enoughData` false ("not enough data"), so a quiet shop cannot be used to single anyone out.
public struct PopularTimes: Codable, Sendable, Hashable {
    public var locationId: UUID
    /// The operator's time zone (IANA name) the weekdays and hours are in.
    public var timeZone: String
    /// Weeks with data in the window (at most 8).
    public var weeksOfData: Int
    /// Seven days, Monday first.
    public var days: [PopularDay]
    public var live: LiveBusyness

    public init(locationId: UUID, timeZone: String, weeksOfData: Int, days: [PopularDay], live: LiveBusyness) {
        self.locationId = locationId
        self.timeZone = timeZone
        self.weeksOfData = weeksOfData
        self.days = days
        self.live = live
    }
}

public struct PopularDay: Codable, Sendable, Hashable {
    /// ISO weekday, 1 = Monday.
    public var weekday: Int
    /// 24 hours, midnight first.
    public var hours: [PopularHour]

    public init(weekday: Int, hours: [PopularHour]) {
        self.weekday = weekday
        self.hours = hours
    }
}

public struct PopularHour: Codable, Sendable, Hashable {
    public var hour: Int
    /// Average visits starting in this hour per week of data, when enough were counted.
    public var averageVisits: Double?
    public var enoughData: Bool

    public init(hour: Int, averageVisits: Double?, enoughData: Bool) {
        self.hour = hour
        self.averageVisits = averageVisits
        self.enoughData = enoughData
    }
}

/// The count of people present now against the usual for this weekday and hour.
public struct LiveBusyness: Codable, Sendable, Hashable {
    /// `not_enough_data`, `quieter` (under 3/4 of usual), `usual` or `busier` (over 5/4 of usual).
    public var level: String
    public var count: Int?
    public var usual: Double?

    public init(level: String, count: Int?, usual: Double?) {
        self.level = level
        self.count = count
        self.usual = usual
    }
}

/// `POST /v1/locations/{id}/line-waits`.
public struct LineWaitReport: Codable, Sendable, Hashable {
    public var minutes: Int

    public init(minutes: Int) {
        self.minutes = minutes
    }
}

/// What people standing in line at a location reported.
public struct LineWaits: Codable, Sendable, Hashable {
    public var locationId: UUID
    /// Median of the recent reports (last hour) after rejecting outliers; `nil` without recent reports.
    public var currentMinutes: Int?
    /// Recent reports the estimate is based on.
    public var recentReports: Int
    public var newestReportAt: Date?
    /// Always shown with the estimate, so an old report is not taken for a live one.
    public var newestReportAgeMinutes: Int?
    /// Average reported wait per ISO weekday and hour over the last 8 weeks, where reported.
    public var averages: [LineWaitAverage]

    public init(
        locationId: UUID,
        currentMinutes: Int?,
        recentReports: Int,
        newestReportAt: Date?,
        newestReportAgeMinutes: Int?,
        averages: [LineWaitAverage]
    ) {
        self.locationId = locationId
        self.currentMinutes = currentMinutes
        self.recentReports = recentReports
        self.newestReportAt = newestReportAt
        self.newestReportAgeMinutes = newestReportAgeMinutes
        self.averages = averages
    }
}

public struct LineWaitAverage: Codable, Sendable, Hashable {
    public var weekday: Int
    public var hour: Int
    public var averageMinutes: Double
    public var reports: Int

    public init(weekday: Int, hour: Int, averageMinutes: Double, reports: Int) {
        self.weekday = weekday
        self.hour = hour
        self.averageMinutes = averageMinutes
        self.reports = reports
    }
}

/// How many customers a business could reach now: people sharing (not inside a private zone, seen in the
/// last 10 minutes) within `radiusMeters` of any of its locations. The reach of a targeted offer.
public struct Audience: Codable, Sendable, Hashable {
    public var radiusMeters: Double
    /// `nil` under `PlacesRules.minimumCount`: small groups are never counted out loud.
    public var count: Int?
    public var enoughData: Bool

    public init(radiusMeters: Double, count: Int?, enoughData: Bool) {
        self.radiusMeters = radiusMeters
        self.count = count
        self.enoughData = enoughData
    }
}
