import PlazaCore
import Testing

@Suite struct CoordinateTests {
    @Test func measuresGreatCircleDistances() {
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let london = Coordinate(latitude: 51.5074, longitude: -0.1278)
        #expect(abs(paris.distance(to: london) - 343_500) < 1_500)
        #expect(paris.distance(to: paris) == 0)
    }

    @Test func refusesImpossibleCoordinates() {
        #expect(Coordinate(latitude: 0, longitude: 0).isValid)
        #expect(!Coordinate(latitude: 91, longitude: 0).isValid)
        #expect(!Coordinate(latitude: 0, longitude: -180.5).isValid)
        #expect(!Coordinate(latitude: .nan, longitude: 0).isValid)
        #expect(!Coordinate(latitude: 0, longitude: .infinity).isValid)
    }
}
