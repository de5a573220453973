import Foundation
import PlazaCore
import PlazaDemo
import PlazaServer
import SQLKit

/// The synthetic town of `plaza bench geo`: users at uniformly random positions in a square box, written
/// straight into the tables (signing a million people up through bcrypt would take days), and bench shops
/// with their customers' open stays, so presence lists have people in them.
struct GeoBenchData: Sendable {
    let center: Coordinate
    let halfSide: Double
    let users: [(id: UUID, coordinate: Coordinate)]

    init(users count: Int, boxMeters: Double, center: Coordinate = DemoData.square, seed: UInt64) {
        self.center = center
        halfSide = boxMeters / 2
        var generator = BenchRandom(seed: seed)
        var users: [(id: UUID, coordinate: Coordinate)] = []
        users.reserveCapacity(count)
        for _ in 0..<count {
            users.append((generator.uuid(), Self.point(center: center, halfSide: boxMeters / 2, &generator)))
        }
        self.users = users
    }

    /// The town as Redis `GEOADD` commands into `key`, a thousand people each, members named by their ids.
    func geoadd(into key: String) -> [[String]] {
        stride(from: 0, to: users.count, by: 1_000).map { start in
            var words = ["GEOADD", key]
            for user in users[start..<min(start + 1_000, users.count)] {
                words += [String(user.coordinate.longitude), String(user.coordinate.latitude), user.id.uuidString]
            }
            return words
        }
    }

    static func point(center: Coordinate, halfSide: Double, _ generator: inout BenchRandom) -> Coordinate {
        center.offset(
            north: Double.random(in: -halfSide...halfSide, using: &generator),
            east: Double.random(in: -halfSide...halfSide, using: &generator)
        )
    }

    /// Inserts `users` as verified customers sharing with merchants, newest positions at `recordedAt`.
    static func insert(
        _ users: ArraySlice<(id: UUID, coordinate: Coordinate)>,
        recordedAt: Date,
        on db: any SQLDatabase
    ) async throws {
        var accounts = db.insert(into: "users").columns(UserRecord.columns + ["deleted_at"])
        var settings = db.insert(into: "location_settings").columns("user_id", "level", "zone_display", "updated_at")
        var positions = db.insert(into: "live_positions").columns(
            "user_id",
            "latitude",
            "longitude",
            "accuracy",
            "zone_id",
            "recorded_at"
        )
        for (id, coordinate) in users {
            let name = GeoBench.username(id)
            let record = UserRecord(
                id: id,
                email: "\(name)@bench.invalid",
                username: name,
                displayName: "Bench \(name)",
                passwordHash: "",
                role: .customer,
                emailVerified: true,
                now: recordedAt
            )
            accounts = accounts.values(record.values + [SQLLiteral.null])
            settings = settings.values(
                SQLBind(id),
                SQLBind(SharingLevel.merchants.rawValue),
                SQLBind(ZoneDisplay.decoy.rawValue),
                SQLBind(recordedAt)
            )
            positions = positions.values(
                SQLBind(id),
                SQLBind(coordinate.latitude),
                SQLBind(coordinate.longitude),
                SQLBind(10.0),
                SQLLiteral.null,
                SQLBind(recordedAt)
            )
        }
        try await accounts.run()
        try await settings.run()
        try await positions.run()
    }
}

/// SplitMix64: the same town for every engine and peer of one run.
struct BenchRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uuid() -> UUID {
        let (a, b) = (next(), next())
        var bytes = withUnsafeBytes(of: (a, b)) { Array($0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12],
                bytes[13], bytes[14], bytes[15]
            )
        )
    }
}
