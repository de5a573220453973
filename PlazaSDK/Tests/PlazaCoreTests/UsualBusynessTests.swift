import Foundation
import PlazaCore
import Testing

/// What the map and the places list say of a place when too few people share now (issue 39).
@Suite struct UsualBusynessTests {
    /// A Monday with figures at 8, 12 and 17 o'clock (12 the week's peak) and too few people at 20.
    let days = (1...7).map { weekday in
        PopularDay(
            weekday: weekday,
            hours: (0..<24).map { hour in
                let average: Double? = weekday != 1 ? nil : [8: 2, 12: 9, 17: 5][hour]
                return PopularHour(hour: hour, averageVisits: average, enoughData: average != nil)
            }
        )
    }

    @Test func theHourIsReadAgainstThePlacesBusiestHour() {
        #expect(UsualBusyness.of(days, weekday: 1, hour: 12) == .busy)
        #expect(UsualBusyness.of(days, weekday: 1, hour: 17) == .moderate)
        #expect(UsualBusyness.of(days, weekday: 1, hour: 8) == .quiet)
        #expect(UsualBusyness.of(days, weekday: 1, hour: 12)?.words == "Usually busy at this hour")
    }

    @Test func anHourWithoutAFigureSaysNothing() {
        #expect(UsualBusyness.of(days, weekday: 1, hour: 20) == nil)
        #expect(UsualBusyness.of(days, weekday: 2, hour: 12) == nil)
        #expect(UsualBusyness.of([], weekday: 1, hour: 12) == nil)
    }
}
