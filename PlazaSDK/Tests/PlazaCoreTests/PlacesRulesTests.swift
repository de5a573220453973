import Foundation
import PlazaCore
import Testing

@Suite struct PlacesRulesTests {
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

    @Test func searchFoldsAccentsCaseAndSharpS() {
        #expect(PlacesRules.searchFolded("Corner CAFÉ") == "corner cafe")
        #expect(PlacesRules.searchFolded("Große Straße") == "grosse strasse")
    }
}
