import Foundation
import PlazaCore
import Testing

@Suite struct PlacesRulesTests {
    @Test func openingHoursReadAsPeopleWriteThem() {
        let periods = PlacesRules.parseOpeningHours("Mon–Fri 07:00-19:00, sat 08:00-14:00")
        #expect(periods?.map(\.day) == [1, 2, 3, 4, 5, 6])
        #expect(periods?.last == OpeningPeriod(day: 6, opens: "08:00", closes: "14:00"))
        #expect(PlacesRules.parseOpeningHours("") == [])
        #expect(PlacesRules.parseOpeningHours("Fri-Mon 07:00-19:00") == nil)
        #expect(PlacesRules.parseOpeningHours("Mon 7-19") == nil)
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
