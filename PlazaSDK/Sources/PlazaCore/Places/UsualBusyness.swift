import Foundation

/// How busy a place usually is in one weekday's hour, from its popular times: what the map and the lists say when
/// too few people share their location now to compare the live count with the usual (issue 39: the map said "Not
/// enough data yet" for every shop while each shop's page showed weeks of visits).
public enum UsualBusyness: String, Codable, Sendable, CaseIterable {
    case quiet
    case moderate
    case busy

    /// The hour's average against the place's busiest hour of the week: under a third is `quiet`, under two thirds
    /// `moderate`, else `busy`. `nil` when the hour has no figure (fewer than `PlacesRules.minimumCount` people made
    /// its visits: the same privacy rule as the chart).
    public static func of(_ days: [PopularDay], weekday: Int, hour: Int) -> UsualBusyness? {
        let peak = days.flatMap(\.hours).compactMap(\.averageVisits).max() ?? 0
        guard peak > 0, let day = days.first(where: { $0.weekday == weekday }),
            let cell = day.hours.first(where: { $0.hour == hour }), cell.enoughData, let average = cell.averageVisits
        else { return nil }
        let share = average / peak
        return share < 1.0 / 3 ? .quiet : share < 2.0 / 3 ? .moderate : .busy
    }

    /// "Usually busy at this hour".
    public var words: String {
        switch self {
        case .quiet: "Usually quiet at this hour"
        case .moderate: "Usually a little busy at this hour"
        case .busy: "Usually busy at this hour"
        }
    }
}
