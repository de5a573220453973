import Foundation
import PlazaCore
import Testing

/// A business's opening hours (as people write them, and open or closed now) and its search text.
@Suite struct BusinessRulesTests {
    let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()
    let hours =
        (1...5).map { OpeningPeriod(day: $0, opens: "07:00", closes: "19:00") } + [
            OpeningPeriod(day: 6, opens: "08:00", closes: "14:00")
        ]

    func at(_ text: String) -> Date { RFC3339.parse(text)! }

    @Test func openingHoursReadAsPeopleWriteThem() {
        let periods = BusinessRules.parseOpeningHours("Mon–Fri 07:00-19:00, sat 08:00-14:00")
        #expect(periods?.map(\.day) == [1, 2, 3, 4, 5, 6])
        #expect(periods?.last == OpeningPeriod(day: 6, opens: "08:00", closes: "14:00"))
        #expect(BusinessRules.parseOpeningHours("") == [])
        #expect(BusinessRules.parseOpeningHours("Fri-Mon 07:00-19:00") == nil)
        #expect(BusinessRules.parseOpeningHours("Mon 7-19") == nil)
    }

    @Test func saysOpenUntilOrClosedUntilInThePlacesTimeZone() {
        // Tuesday 24 Nov 2026, 17:30 in Berlin (16:30 UTC).
        #expect(
            BusinessRules.openState(hours, at: at("2026-11-24T16:30:00Z"), calendar: calendar)! == (
                true, "closes 19:00"
            )
        )
        // 06:30 in Berlin: later today.
        #expect(
            BusinessRules.openState(hours, at: at("2026-11-24T05:30:00Z"), calendar: calendar)! == (
                false, "opens 07:00"
            )
        )
        // Saturday 15:00: closed until Monday.
        #expect(
            BusinessRules.openState(hours, at: at("2026-11-28T14:00:00Z"), calendar: calendar)! == (
                false, "opens Mon 07:00"
            )
        )
        #expect(BusinessRules.openState([], at: Date(), calendar: calendar) == nil)
    }

    @Test func searchTextIsTheNameAndDescriptionFolded() {
        #expect(BusinessRules.searchText(name: "Bakery", description: "Brezn") == "bakery brezn")
    }
}
