import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore
import PlazaDemo
import PlazaServer
import SQLKit

/// `plaza bench offers`: what matching campaigns adds to a location update. Movers who let nearby shops' offers reach
/// them send location updates over HTTP to a `plaza serve` of its own, first in a town with no campaigns, then, in the
/// same run and with the same positions and timing (other movers, so that no offer was had before), in the same town
/// with `campaigns` active campaigns at `businesses` shops: every update is matched against them inside its transaction
/// and the offers it earns are written and published. The no-campaign row is the peer.
public struct OffersBench: Sendable {
    public struct Options: Sendable {
        public var campaigns = 10_000
        public var businesses = 1_000
        public var movers = 1_000
        public var updates = 5_000
        public var boxMeters = 4_000.0
        public var concurrency = 16
        public var httpClient = BenchHTTPClient.nio
        public init() {}
    }

    var configuration: PlazaConfiguration
    let options: Options

    public init(configuration: PlazaConfiguration, options: Options) {
        self.configuration = configuration
        self.options = options
    }

    public func run() async throws -> String {
        try await BenchSetup.withServices(configuration) { services, _ in
            try await measure(services: services, logger: BenchSetup.logger)
        }
    }

    private func measure(services: PlazaServices, logger: Logger) async throws -> String {
        try await BenchSetup.requireEmpty(services, bench: "offers")
        let clock = ContinuousClock()
        var generator = BenchRandom(seed: 23)
        let center = DemoData.square
        let half = options.boxMeters / 2
        let perMover = max(1, options.updates / max(1, options.movers))
        // Each mover's updates a second apart, ending now: fresh enough to meet campaigns, each newer than the last.
        let points = (0..<(options.movers * perMover)).map { _ in
            GeoBenchData.point(center: center, halfSide: half, &generator)
        }
        let quiet = try await OffersBenchData.movers(options.movers, services: services, seed: 1)
        let matched = try await OffersBenchData.movers(options.movers, services: services, seed: 2)
        let declining = try await OffersBenchData.movers(options.movers, services: services, seed: 3, nearby: false)
        var lines = [
            "plaza bench offers: \(options.movers * perMover) location updates (\(options.movers) movers × \(perMover)) in a "
                + "\(Int(options.boxMeters / 1_000)) km square town, \(options.concurrency) clients, \(services.database.engine.rawValue), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores"
        ]

        let before = try await run(
            points: points,
            movers: quiet,
            perMover: perMover,
            services: services,
            logger: logger
        )
        let started = clock.now
        let shops = try await OffersBenchData.campaigns(
            options.campaigns,
            businesses: options.businesses,
            center: center,
            halfSide: half,
            services: services,
            generator: &generator
        )
        lines.append(
            "Seeded \(options.campaigns) active campaigns (automatic delivery, radius 100 to 300 m) at \(shops) shops in "
                + "\(String(format: "%.1f", LoadMeter.milliseconds(clock.now - started) / 1_000)) s."
        )
        let declined = try await run(
            points: points,
            movers: declining,
            perMover: perMover,
            services: services,
            logger: logger
        )
        let after = try await run(
            points: points,
            movers: matched,
            perMover: perMover,
            services: services,
            logger: logger
        )
        let offers =
            try await services.database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(
                "offers"
            ).first()?
            .decode(column: "n", as: Int.self) ?? 0
        lines += [
            "plaza serve built its campaign index on the first update after start: \(String(format: "%.0f", after.warmUp)) ms.",
            "Offers delivered by the matched run: \(offers) (each mover gets each campaign once, at most 20 a day).",
            "",
            "| town | updates | updates/s | p50 ms | p99 ms | offers delivered |",
            "|---|---:|---:|---:|---:|---:|",
            Self.row("no campaigns (peer)", before.result, offers: 0),
            Self.row(
                "\(options.campaigns) active campaigns, movers who take only subscribed shops' offers",
                declined.result,
                offers: 0
            ),
            Self.row(
                "\(options.campaigns) active campaigns, movers who take nearby offers",
                after.result,
                offers: offers
            ),
            "",
            "Matching alone adds \(String(format: "%.2f", declined.result.p50 - before.result.p50)) ms at the median "
                + "(\(String(format: "%.2f", declined.result.p99 - before.result.p99)) ms at p99); matching and delivering, "
                + "\(String(format: "%.2f", after.result.p50 - before.result.p50)) ms (\(String(format: "%.2f", after.result.p99 - before.result.p99)) ms).",
        ]
        return lines.joined(separator: "\n")
    }

    struct Run {
        var result: LoadMeter.Result
        var warmUp: Double
    }

    /// One `plaza serve` started on the database as it stands; the movers' updates sent through it.
    private func run(
        points: [Coordinate],
        movers: [OffersBenchData.Mover],
        perMover: Int,
        services: PlazaServices,
        logger: Logger
    ) async throws -> Run {
        let now = Date()
        let bodies = try points.enumerated().map { index, point in
            let step = index / movers.count
            let recordedAt = Date(
                timeIntervalSince1970: (now.timeIntervalSince1970 - Double(perMover - step)).rounded(.down)
            )
            let upload = LocationUpload(points: [
                LocationPoint(
                    latitude: point.latitude,
                    longitude: point.longitude,
                    accuracy: 10,
                    recordedAt: recordedAt
                )
            ])
            return ByteBuffer(bytes: try PlazaJSON.encoder().encode(upload))
        }
        let server = try await BenchChildServer(
            storage: services.configuration.storage,
            secretKey: services.configuration.secretKey ?? "",
            logger: logger
        )
        do {
            let http = try await HTTPPool(port: server.port, size: options.concurrency, client: options.httpClient)
            // The first update loads what the process keeps in memory (the places catalog, the campaign index): sent by the
            // first mover, dated before their own updates.
            let first = LocationUpload(
                points: [
                    LocationPoint(
                        latitude: points[0].latitude,
                        longitude: points[0].longitude,
                        accuracy: 10,
                        recordedAt: now.addingTimeInterval(-Double(perMover + 10))
                    )
                ])
            let clock = ContinuousClock()
            let start = clock.now
            try await http.send(
                0,
                .POST,
                "/v1/me/locations",
                token: movers[0].token,
                json: ByteBuffer(bytes: try PlazaJSON.encoder().encode(first))
            )
            let warm = LoadMeter.milliseconds(clock.now - start)
            let meter = LoadMeter(concurrency: options.concurrency)
            // Update i belongs to mover i % movers: a mover's updates go in order, one step per round.
            let result = try await meter.run(bodies.count) { index in
                try await http.send(
                    index,
                    .POST,
                    "/v1/me/locations",
                    token: movers[index % movers.count].token,
                    json: bodies[index]
                )
            }
            await http.close()
            server.stop()
            return Run(result: result, warmUp: warm)
        } catch {
            server.stop()
            throw error
        }
    }

    static func row(_ what: String, _ result: LoadMeter.Result, offers: Int) -> String {
        "| \(what) | \(result.operations) | \(Int(result.rate.rounded())) | \(String(format: "%.2f", result.p50)) | "
            + "\(String(format: "%.2f", result.p99)) | \(offers) |"
    }
}
