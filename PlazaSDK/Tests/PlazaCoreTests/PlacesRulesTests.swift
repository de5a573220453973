import Foundation
import PlazaCore
import Testing

@Suite struct PlacesRulesTests {
    @Test func openingHoursReadAsPeopleWriteThem() {
        let periods = BusinessRules.parseOpeningHours("Mon–Fri 07:00-19:00, sat 08:00-14:00")
        #expect(periods?.map(\.day) == [1, 2, 3, 4, 5, 6])
        #expect(periods?.last == OpeningPeriod(day: 6, opens: "08:00", closes: "14:00"))
        #expect(BusinessRules.parseOpeningHours("") == [])
        #expect(BusinessRules.parseOpeningHours("Fri-Mon 07:00-19:00") == nil)
        #expect(BusinessRules.parseOpeningHours("Mon 7-19") == nil)
    }

    @Test func uploadsNameEveryImpossiblePoint() {
        let now = Date()
        let upload = LocationUpload(points: [
            LocationPoint(latitude: .nan, longitude: 0, recordedAt: now),
            LocationPoint(latitude: 0, longitude: .infinity, accuracy: -1, recordedAt: now),
        ])
        let fields = PlacesRules.uploadProblems(upload, now: now, retention: 86_400).map(\.field)
        #expect(fields == ["points.0.latitude", "points.1.longitude", "points.1.accuracy"])
    }

    @Test func destinationsWrapAcrossTheAntimeridian() {
        let east = Coordinate(latitude: 0, longitude: 179.9995).offset(east: 200)
        #expect(east.longitude < -179.99 && abs(east.latitude) < 1e-9)
        #expect(abs(Coordinate(latitude: 0, longitude: 179.9995).distance(to: east) - 200) < 0.01)
    }
}

@Suite struct OpenStateTests {
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

    @Test func searchFoldsAccentsCaseAndSharpS() {
        #expect(PlacesRules.searchFolded("Corner CAFÉ") == "corner cafe")
        #expect(PlacesRules.searchFolded("Große Straße") == "grosse strasse")
        #expect(BusinessRules.searchText(name: "Bakery", description: "Brezn") == "bakery brezn")
    }
}
