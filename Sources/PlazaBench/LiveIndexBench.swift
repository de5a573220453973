import Foundation
import PlazaCore
import PlazaServer

/// `plaza bench live-index`: the memory the live index holds per live position, beside Redis holding the same people
/// in a GEO set (`GEOADD`, `INFO memory`'s `used_memory`), in one run. The index is filled in this process the way a
/// server fills it at start (`replaceAll`); its cost is the resident memory it adds (the positions it is filled from
/// are made before the first reading).
public struct LiveIndexBench: Sendable {
    public struct Options: Sendable {
        public var people = 1_000_000
        public var boxMeters = 20_000.0
        /// One person in `staysEvery` has an open stay at a shop (their names are then kept for presence lists).
        public var staysEvery = 50
        public var redisPort: Int?
        public init() {}
    }

    let options: Options

    public init(options: Options) {
        self.options = options
    }

    public func run() async throws -> String {
        let town = GeoBenchData(users: options.people, boxMeters: options.boxMeters, seed: 2026)
        let now = Date()
        var positions: [LivePosition] = []
        positions.reserveCapacity(town.users.count)
        let shop = UUID()
        for (number, user) in town.users.enumerated() {
            let name = GeoBench.username(user.id)
            positions.append(
                LivePosition(
                    userId: user.id,
                    username: name,
                    displayName: "Bench \(name)",
                    latitude: user.coordinate.latitude,
                    longitude: user.coordinate.longitude,
                    recordedAt: now,
                    level: .merchants,
                    zoneId: nil,
                    published: nil,
                    stays: number % options.staysEvery == 0 ? [OpenStay(locationId: shop, enteredAt: now)] : []
                )
            )
        }
        let index = LiveIndex()
        let residentBefore = Self.residentBytes()
        let clock = ContinuousClock()
        let started = clock.now
        index.replaceAll(with: positions)
        let took = clock.now - started
        let resident = Self.residentBytes() - residentBefore
        let count = Double(index.count)
        var lines = [
            "| live positions | system | bytes per position | total MB | note |",
            "|---:|---|---:|---:|---|",
            row(
                index.count,
                "Plaza live index",
                Double(resident) / count,
                resident,
                "resident memory added; filled in \(Self.seconds(took)) s"
            ),
        ]
        // Reading it: how many people within 1 km of a point, one query at a time (an offer's audience).
        var generator = BenchRandom(seed: 11)
        let centers = (0..<2_000).map { _ in
            GeoBenchData.point(center: town.center, halfSide: town.halfSide - 1_000, &generator)
        }
        var counted = 0
        let queried = clock.now
        for center in centers {
            counted += index.presentCount(within: 1_000, of: center, freshSince: .distantPast)
        }
        let perQuery = LoadMeter.milliseconds(clock.now - queried) / Double(centers.count)
        let reading =
            "Counting the people within 1 km (\(counted / centers.count) on average), one query at a time: "
            + "\(String(format: "%.3f", perQuery)) ms a query."
        if let port = options.redisPort {
            let redis = try await RedisConnection(port: port)
            try await redis.command(["DEL", "bench-live"])
            let before = try await Self.usedMemory(redis)
            for command in town.geoadd(into: "bench-live") { try await redis.command(command) }
            let used = try await Self.usedMemory(redis) - before
            lines.append(row(town.users.count, "Redis GEO set", Double(used) / count, used, "used_memory added"))
            try await redis.command(["DEL", "bench-live"])
            await redis.close()
        }
        withExtendedLifetime(index) {}
        return (lines + ["", reading]).joined(separator: "\n")
    }

    private func row(_ count: Int, _ system: String, _ perPosition: Double, _ total: Int, _ note: String) -> String {
        "| \(count) | \(system) | \(Int(perPosition.rounded())) | \(String(format: "%.1f", Double(total) / 1e6)) | \(note) |"
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f", LoadMeter.milliseconds(duration) / 1_000)
    }

    /// The process's resident memory (`/proc/self/statm`).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func usedMemory(_ redis: RedisConnection) async throws -> Int {
        guard case .bulk(let text?) = try await redis.command(["INFO", "memory"]) else { return 0 }
        let line = text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("used_memory:") }
        return line.flatMap { Int($0.dropFirst("used_memory:".count)) } ?? 0
    }
}
