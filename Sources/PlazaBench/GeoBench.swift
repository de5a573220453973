import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore
import PlazaDemo
import PlazaServer
import PostgresNIO
import SQLKit
import ServiceLifecycle

/// `plaza bench geo`: a town of `users` people at random positions in a `boxMeters` square, then
/// (a) location updates over HTTP, one point and 100 points per request, beside Redis `GEOADD`;
/// (b) presence lists (shops of 100 m and 200 m) and 1 km audiences over HTTP, beside Redis `GEOSEARCH`
/// and PostGIS `ST_DWithin` on the same points at the same concurrency, with the result sets compared.
public struct GeoBench: Sendable {
    public struct Options: Sendable {
        public var users = 1_000_000
        public var boxMeters = 20_000.0
        public var concurrency = 8
        public var requests = 4_000
        public var redisPort: Int?
        public var postgisURL: URL?
        public var httpClient = BenchHTTPClient.nio
        /// Print each shop where the systems found different people (`--show-disagreements`).
        public var showDisagreements = false
        public init() {}
    }

    var configuration: PlazaConfiguration
    let options: Options
    static let movers = 256
    static let shopsPerRadius = 100

    public init(configuration: PlazaConfiguration, options: Options) {
        self.configuration = configuration
        self.options = options
    }

    struct Row {
        var what: String
        var system: String
        var result: LoadMeter.Result
        var unit: Double = 1
    }

    /// Fills a fresh database from this process, then measures a `plaza serve` of its own on it.
    public func run() async throws -> String {
        try await BenchSetup.withServices(configuration) { services, _ in
            try await measure(services: services, logger: BenchSetup.logger)
        }
    }

    private func measure(services: PlazaServices, logger: Logger) async throws -> String {
        var lines: [String] = []
        let clock = ContinuousClock()
        let town = GeoBenchData(users: options.users, boxMeters: options.boxMeters, seed: 2026)
        // Static people stay "fresh" for the whole run: their newest point is dated a little ahead.
        let seededAt = Date().addingTimeInterval(20 * 60)
        var started = clock.now
        for start in stride(from: 0, to: town.users.count, by: 10_000) {
            let chunk = town.users[start..<min(start + 10_000, town.users.count)]
            try await services.database.transaction { db in
                for part in stride(from: chunk.startIndex, to: chunk.endIndex, by: 500) {
                    try await GeoBenchData.insert(
                        chunk[part..<min(part + 500, chunk.endIndex)],
                        recordedAt: seededAt,
                        on: db
                    )
                }
            }
        }
        lines.append(
            "Seeded \(town.users.count) people in \(String(format: "%.1f", LoadMeter.milliseconds(clock.now - started) / 1_000)) s."
        )

        // The merchant, the shops (100 with a 100 m radius, 100 with 200 m) and the stays of everyone inside them.
        let merchantID = UUID()
        let merchant = UserRecord(
            id: merchantID,
            email: "merchant@bench.invalid",
            username: "benchmerchant",
            displayName: "Bench merchant",
            passwordHash: "",
            role: .merchant,
            emailVerified: true,
            now: Date()
        )
        try await AccountStore().insert(merchant, on: services.database.sql)
        let owner = Identity(user: merchant, sessionID: UUID())
        var generator = BenchRandom(seed: 7)
        var grid = GeoGrid<Int, Void>(cellDegrees: 0.002)
        for (index, user) in town.users.enumerated() { grid.upsert(index, at: user.coordinate, value: ()) }
        var shops: [(business: UUID, location: BusinessLocation)] = []
        for radius in [100, 200] {
            for number in 0..<Self.shopsPerRadius {
                let point = GeoBenchData.point(center: town.center, halfSide: town.halfSide - 1_500, &generator)
                let business = try await services.businesses.createBusiness(
                    owner,
                    CreateBusinessRequest(name: "Shop \(radius)-\(number)", category: .retail)
                )
                let location = try await services.businesses.addLocation(
                    owner,
                    business: business.id,
                    LocationRequest(
                        name: "Bench",
                        address: "Bench",
                        latitude: point.latitude,
                        longitude: point.longitude,
                        radiusMeters: radius
                    )
                )
                shops.append((business.id, location))
                let inside = grid.within(Double(radius), of: point).map { town.users[$0.key].id }
                try await services.database.transaction { db in
                    for user in inside {
                        try await StayStore().insert(
                            StayRecord(
                                id: UUID(),
                                userId: user,
                                locationId: location.id,
                                enteredAt: seededAt,
                                lastSeenAt: seededAt
                            ),
                            on: db
                        )
                    }
                }
            }
        }
        let merchantToken = try await Self.session(for: merchantID, services: services)

        // Movers: people apart from the town who send points during the ingest runs.
        let movers = (0..<Self.movers).map { _ in
            (id: generator.uuid(), start: GeoBenchData.point(center: town.center, halfSide: town.halfSide, &generator))
        }
        try await services.database.transaction { db in
            try await GeoBenchData.insert(
                movers.map { (id: $0.id, coordinate: $0.start) }[...],
                recordedAt: Date().addingTimeInterval(-3_600),
                on: db
            )
        }
        var moverTokens: [String] = []
        for mover in movers { moverTokens.append(try await Self.session(for: mover.id, services: services)) }

        // The server starts on the filled database and builds its live index on the first request.
        let server = try await BenchChildServer(
            storage: services.configuration.storage,
            secretKey: services.configuration.secretKey ?? "",
            logger: logger
        )
        do {
            let http = try await HTTPPool(port: server.port, size: options.concurrency, client: options.httpClient)
            started = clock.now
            try await http.send(0, .GET, "/v1/businesses/\(shops[0].business)/presence", token: merchantToken)
            lines.append(
                "plaza serve built its live index from the database on its first request: \(String(format: "%.1f", LoadMeter.milliseconds(clock.now - started) / 1_000)) s."
            )
            let report = try await queries(
                services: services,
                town: town,
                shops: shops,
                grid: grid,
                merchantToken: merchantToken,
                movers: movers,
                moverTokens: moverTokens,
                http: http,
                lines: lines,
                logger: logger
            )
            await http.close()
            server.stop()
            return report
        } catch {
            server.stop()
            throw error
        }
    }

    static func username(_ id: UUID) -> String {
        "g" + id.uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// A signed-in API session for `user`, and its access token.
    static func session(for user: UUID, services: PlazaServices) async throws -> String {
        let id = try await SessionStore().create(
            userID: user,
            kind: .api,
            device: "bench",
            now: Date(),
            expires: Date().addingTimeInterval(86_400),
            on: services.database.sql
        )
        return try await AccessTokens(secretKey: services.configuration.secretKey ?? "", lifetime: 3_600).issue(
            userID: user,
            sessionID: id
        )
    }
}
