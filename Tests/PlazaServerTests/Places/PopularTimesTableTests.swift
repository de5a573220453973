import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

/// The live level: the count now against this weekday and hour's average over the weeks with data.
@Suite struct PopularTimesTableTests {
    let utc = TimeZone(identifier: "UTC")!
    // Monday 2026-11-23 10:30 UTC.
    let now = Date(timeIntervalSince1970: 1_795_429_800)

    /// Four past Mondays at 10:00 with 10 visits each: usual 10 an hour.
    var table: PopularTimesTable {
        let hours = (1...4).map { (hourStart: now.addingTimeInterval(-Double($0) * 7 * 86_400 - 1_800), visits: 10) }
        return PopularTimesTable(hours: hours, people: [1 * 24 + 10: 12], now: now, timeZone: utc)
    }

    @Test func theCountNowIsComparedWithTheUsual() {
        #expect(table.weeks == 4)
        #expect(table.days[0].hours[10] == PopularHour(hour: 10, averageVisits: 10, enoughData: true))
        #expect(table.live(count: 6, at: now) == LiveBusyness(level: "quieter", count: 6, usual: 10))
        #expect(table.live(count: 10, at: now) == LiveBusyness(level: "usual", count: 10, usual: 10))
        #expect(table.live(count: 14, at: now) == LiveBusyness(level: "busier", count: 14, usual: 10))
    }

    @Test func fewPeopleOrNoHistoryIsNotEnoughData() {
        #expect(table.live(count: 4, at: now) == LiveBusyness(level: "not_enough_data", count: nil, usual: 10))
        let empty = PopularTimesTable(hours: [], people: [:], now: now, timeZone: utc)
        #expect(empty.weeks == 0 && empty.live(count: 20, at: now).level == "not_enough_data")
    }

    /// Forty visits by four people are four people: the cell stays hidden.
    @Test func aCellNeedsFiveDistinctPeopleNotFiveVisits() {
        let hours = (1...4).map { (hourStart: now.addingTimeInterval(-Double($0) * 7 * 86_400 - 1_800), visits: 10) }
        let few = PopularTimesTable(hours: hours, people: [1 * 24 + 10: 4], now: now, timeZone: utc)
        #expect(few.days[0].hours[10] == PopularHour(hour: 10, averageVisits: nil, enoughData: false))
        #expect(few.live(count: 10, at: now).level == "not_enough_data")
    }
}
