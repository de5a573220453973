import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

@Suite struct GeoGridTests {
    /// Random points clustered where grids usually break: the antimeridian, the poles, and anywhere.
    static func randomPoint(_ generator: inout some RandomNumberGenerator) -> Coordinate {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            Coordinate(
                latitude: .random(in: -60...60, using: &generator),
                longitude: [179.99, -179.99].randomElement(using: &generator)!
                    + .random(in: -0.02...0.02, using: &generator)
            ).wrapped
        case 1:
            Coordinate(
                latitude: .random(in: 89.9...90, using: &generator),
                longitude: .random(in: -180...180, using: &generator)
            )
        case 2:
            Coordinate(
                latitude: .random(in: -90 ... -89.9, using: &generator),
                longitude: .random(in: -180...180, using: &generator)
            )
        default:
            Coordinate(
                latitude: .random(in: -90...90, using: &generator),
                longitude: .random(in: -180...180, using: &generator)
            )
        }
    }

    @Test func circleQueriesMatchBruteForceEverywhere() {
        var generator = SeededGenerator(seed: 42)
        var grid = GeoGrid<Int, Void>(cellDegrees: 0.002)
        var points: [Int: Coordinate] = [:]
        for id in 0..<6_000 {
            let point = Self.randomPoint(&generator)
            points[id] = point
            grid.upsert(id, at: point, value: ())
        }
        // Moves and removals keep the grid consistent.
        for id in 0..<500 {
            let point = Self.randomPoint(&generator)
            points[id] = point
            grid.upsert(id, at: point, value: ())
        }
        for id in 500..<700 {
            points[id] = nil
            grid.remove(id)
        }
        for _ in 0..<400 {
            let center = Self.randomPoint(&generator)
            let radius = [50.0, 100, 1_000, 5_000, 20_000].randomElement(using: &generator)!
            let expected = Set(points.filter { $0.value.distance(to: center) <= radius }.keys)
            let found = Set(grid.within(radius, of: center).map(\.key))
            #expect(found == expected, "center \(center) radius \(radius)")
        }
    }

    @Test func nearbyAcrossTheAntimeridianIsFound() {
        var grid = GeoGrid<String, Void>(cellDegrees: 0.002)
        let west = Coordinate(latitude: -16.5, longitude: 179.9995)
        let east = Coordinate(latitude: -16.5, longitude: -179.9995)
        grid.upsert("east", at: east, value: ())
        let found = grid.within(200, of: west)
        #expect(found.map(\.key) == ["east"])
        #expect(abs(found[0].distance - west.distance(to: east)) < 0.001 && found[0].distance < 120)
    }

    @Test func aCircleAroundThePoleReachesEveryLongitude() {
        var grid = GeoGrid<Int, Void>(cellDegrees: 0.002)
        for (id, longitude) in [-179.0, -90, 0, 45, 135, 180].enumerated() {
            grid.upsert(id, at: Coordinate(latitude: 89.995, longitude: longitude), value: ())
        }
        #expect(grid.within(1_200, of: Coordinate(latitude: 90, longitude: 0)).count == 6)
    }

    @Test func boxQueriesMatchBruteForceIncludingAcrossTheAntimeridian() {
        var generator = SeededGenerator(seed: 7)
        var grid = GeoGrid<Int, Void>(cellDegrees: 0.01)
        var points: [Int: Coordinate] = [:]
        for id in 0..<3_000 {
            let point = Coordinate(
                latitude: .random(in: -10...10, using: &generator),
                longitude: .random(in: -180...180, using: &generator)
            )
            points[id] = point
            grid.upsert(id, at: point, value: ())
        }
        for (west, east) in [(170.0, -170.0), (-20.0, 20.0), (179.5, 179.9), (-180.0, 180.0)] {
            let expected = Set(
                points.filter { point in
                    let inLongitude =
                        west <= east
                        ? (west...east).contains(point.value.longitude)
                        : point.value.longitude >= west || point.value.longitude <= east
                    return inLongitude && (-5.0...5.0).contains(point.value.latitude)
                }.keys
            )
            let found = Set(grid.inside(south: -5, west: west, north: 5, east: east).map(\.key))
            #expect(found == expected, "west \(west) east \(east)")
        }
    }
}

extension Coordinate {
    var wrapped: Coordinate { Coordinate(latitude: latitude, longitude: Coordinate.wrapLongitude(longitude)) }
}

/// SplitMix64: repeatable random data for property tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct LiveIndexTests {
    @Test func peopleSilentForLongAreDroppedFromBothGrids() {
        let index = LiveIndex()
        let now = Date()
        let here = Coordinate(latitude: 10, longitude: 10)
        for (minutes, level) in [(5.0, SharingLevel.map), (90, .map), (120, .merchants)] {
            index.apply(
                LivePosition(
                    userId: UUID(),
                    username: "someone",
                    displayName: "Someone",
                    latitude: here.latitude,
                    longitude: here.longitude,
                    recordedAt: now.addingTimeInterval(-minutes * 60),
                    level: level,
                    zoneId: nil,
                    published: here
                )
            )
        }
        #expect(index.count == 3)
        #expect(index.prune(olderThan: now.addingTimeInterval(-3_600)) == 2)
        #expect(index.count == 1)
        #expect(index.dots(south: 9, west: 9, north: 11, east: 11, freshSince: .distantPast, limit: 10).count == 1)
    }

    /// Positions the feed delivers while a rebuild reads the database survive the rebuild's older rows.
    @Test func aRebuildKeepsWhatArrivedWhileItRead() {
        let index = LiveIndex()
        let now = Date()
        let (moved, left) = (UUID(), UUID())
        func position(_ user: UUID, _ latitude: Double, _ age: Double) -> LivePosition {
            LivePosition(
                userId: user,
                username: "u",
                displayName: "U",
                latitude: latitude,
                longitude: 10,
                recordedAt: now.addingTimeInterval(-age),
                level: .merchants,
                zoneId: nil,
                published: nil
            )
        }
        index.beginRebuild()
        index.apply(position(moved, 20, 1))
        index.forget(left)
        index.replaceAll(with: [position(moved, 10, 60), position(left, 10, 60)])
        #expect(index.position(of: moved)?.latitude == 20)
        #expect(index.position(of: left) == nil)
        index.apply(position(moved, 30, 0))
        index.replaceAll(with: [position(moved, 10, 60)])
        #expect(index.position(of: moved)?.latitude == 10, "no rebuild under way: nothing to replay")
    }
}
