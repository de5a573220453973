import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

@Suite struct MapObfuscatorTests {
    let obfuscator = MapObfuscator(epsilon: 0.01, secretKey: "test-secret-key-that-is-long-enough-0123456789")
    let place = Coordinate(latitude: 48.1374, longitude: 11.5755)
    let day = Date(timeIntervalSince1970: 1_795_000_000)

    /// Planar Laplace with ε = 0.01/m has an expected offset of 2/ε = 200 m (plus up to half a cell of snapping).
    @Test func theExpectedErrorIsAbout200Metres() {
        let errors = (0..<20_000).map { _ in obfuscator.publish(place, user: UUID(), at: day).distance(to: place) }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect((190...225).contains(mean), "mean error \(mean) m")
        // Heavy tail as the distribution predicts: P(r > 500 m) = (1 + 5) e^-5 ≈ 4 %.
        let far = Double(errors.filter { $0 > 500 }.count) / Double(errors.count)
        #expect((0.025...0.06).contains(far), "share beyond 500 m \(far)")
    }

    @Test func repeatedReportsFromOneCellOnOneDayGiveTheSameDot() {
        let user = UUID()
        let first = obfuscator.publish(place, user: user, at: day)
        let nearby = place.offset(north: 5, east: 5)
        #expect(obfuscator.publish(nearby, user: user, at: day.addingTimeInterval(600)) == first)
        #expect(obfuscator.publish(place, user: user, at: day.addingTimeInterval(86_400)) != first)
        #expect(obfuscator.publish(place, user: UUID(), at: day) != first)
    }
}
