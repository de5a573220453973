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

/// The measured rows: ingest, each protocol's floor, presence and audience queries, and the systems' agreement.
extension GeoBench {
    func queries(
        services: PlazaServices,
        town: GeoBenchData,
        shops: [(business: UUID, location: BusinessLocation)],
        grid: GeoGrid<Int, Void>,
        merchantToken: String,
        movers: [(id: UUID, start: Coordinate)],
        moverTokens: [String],
        http: HTTPPool,
        lines: [String],
        logger: Logger
    ) async throws -> String {
        var lines = lines
        let clock = ContinuousClock()
        var started = clock.now
        let places = services.places
        let meter = LoadMeter(concurrency: options.concurrency)
        var rows: [Row] = []
        let redis = try await options.redisPort.asyncMap { try await RedisPool(port: $0, size: options.concurrency) }
        if let redis {
            try await redis.connection(0).command(["DEL", "bench"])
            for command in town.geoadd(into: "bench") { try await redis.connection(0).command(command) }
        }
        let postgis = try options.postgisURL.map {
            try PostGISPeer(url: $0, connections: options.concurrency, logger: logger)
        }
        return try await withThrowingTaskGroup(of: Void.self) { peers in
            if let postgis { peers.addTask { await postgis.client.run() } }
            defer { peers.cancelAll() }
            if let postgis {
                started = clock.now
                try await postgis.load(town.users.map { ($0.id, $0.coordinate.longitude, $0.coordinate.latitude) })
                lines.append(
                    "PostGIS loaded and indexed in \(String(format: "%.1f", LoadMeter.milliseconds(clock.now - started) / 1_000)) s."
                )
            }

            // (a) Ingest.
            let requests = options.requests
            let moverPoints: @Sendable (Int) -> Coordinate = { index in
                movers[index % Self.movers].start.offset(north: Double(index % 97) * 3, east: Double(index % 89) * 3)
            }
            // Every request body and command is built before the clock starts, for both systems alike. Each mover's
            // points are a second apart, newer than the last (so that every upload moves its live position and
            // stays), the single points first, the last 100-point upload's a few seconds ago.
            let batches = max(1, requests / 10)
            // Whole seconds, as the uploads' JSON carries them.
            let batchBase = Date(
                timeIntervalSince1970: (Date().timeIntervalSince1970 - 5 - Double((batches / Self.movers + 1) * 100))
                    .rounded(.down)
            )
            let ingestBase = batchBase.addingTimeInterval(-Double(requests / Self.movers + 1))
            let singles = try (0..<requests).map { index in
                let point = moverPoints(index)
                let time = ingestBase.addingTimeInterval(Double(index / Self.movers))
                return ByteBuffer(
                    bytes: try PlazaJSON.encoder().encode(
                        LocationUpload(points: [
                            LocationPoint(
                                latitude: point.latitude,
                                longitude: point.longitude,
                                accuracy: 8,
                                recordedAt: time
                            )
                        ])
                    )
                )
            }
            rows.append(
                Row(
                    what: "ingest, 1 point per request",
                    system: "Plaza HTTP",
                    result: try await meter.run(requests) { index in
                        try await http.send(
                            index,
                            .POST,
                            "/v1/me/locations",
                            token: moverTokens[index % Self.movers],
                            json: singles[index]
                        )
                    }
                )
            )
            if let redis {
                let commands = (0..<requests).map { index in
                    let point = moverPoints(index)
                    return [
                        "GEOADD", "bench", String(point.longitude), String(point.latitude),
                        movers[index % Self.movers].id.uuidString,
                    ]
                }
                rows.append(
                    Row(
                        what: "ingest, 1 point per request",
                        system: "Redis GEOADD",
                        result: try await meter.run(requests) { index in
                            try await redis.connection(index).command(commands[index])
                        }
                    )
                )
            }
            let batchBodies = try (0..<batches).map { index in
                let points = (0..<100).map { k -> LocationPoint in
                    let point = moverPoints(index * 100 + k)
                    return LocationPoint(
                        latitude: point.latitude,
                        longitude: point.longitude,
                        accuracy: 8,
                        recordedAt: batchBase.addingTimeInterval(Double((index / Self.movers) * 100 + k))
                    )
                }
                return ByteBuffer(bytes: try PlazaJSON.encoder().encode(LocationUpload(points: points)))
            }
            let watch = try await FeedWatch.start(services: services)
            let batchesStarted = clock.now
            rows.append(
                Row(
                    what: "ingest, 100 points per request",
                    system: "Plaza HTTP",
                    result: try await meter.run(batches) { index in
                        try await http.send(
                            index,
                            .POST,
                            "/v1/me/locations",
                            token: moverTokens[index % Self.movers],
                            json: batchBodies[index]
                        )
                    },
                    unit: 100
                )
            )
            if let watch {
                let sent = clock.now
                var newest: [UUID: Date] = [:]
                for index in 0..<batches {
                    newest[movers[index % Self.movers].id] = batchBase.addingTimeInterval(
                        Double((index / Self.movers) * 100 + 99)
                    )
                }
                let arrived = await watch.arrival(of: newest, limit: .seconds(60))
                watch.stop()
                lines.append(
                    arrived.map { arrived in
                        let seconds = LoadMeter.milliseconds(arrived - batchesStarted) / 1_000
                        return
                            "Feed (LISTEN/NOTIFY) to a second process: the \(batches) uploads' positions were all in "
                            + "its live index \(String(format: "%.1f", LoadMeter.milliseconds(arrived - sent))) ms after "
                            + "the last answer: \(String(format: "%.0f", Double(batches) / seconds)) positions/s carried."
                    } ?? "Feed (LISTEN/NOTIFY) to a second process: positions still missing 60 s after the uploads."
                )
            }
            if let redis {
                let commands = (0..<batches).map { index in
                    var words = ["GEOADD", "bench"]
                    for k in 0..<100 {
                        let point = moverPoints(index * 100 + k)
                        words += [
                            String(point.longitude), String(point.latitude),
                            "\(movers[index % Self.movers].id.uuidString)-\(k)",
                        ]
                    }
                    return words
                }
                rows.append(
                    Row(
                        what: "ingest, 100 points per request",
                        system: "Redis GEOADD ×100",
                        result: try await meter.run(batches) { index in
                            try await redis.connection(index).command(commands[index])
                        },
                        unit: 100
                    )
                )
            }

            // Each protocol's floor: the cheapest request each server answers.
            rows.append(
                Row(
                    what: "floor: the cheapest request",
                    system: "Plaza HTTP GET /healthz",
                    result: try await meter.run(requests) { index in
                        try await http.send(index, .GET, "/healthz", token: merchantToken)
                    }
                )
            )
            if let redis {
                rows.append(
                    Row(
                        what: "floor: the cheapest request",
                        system: "Redis PING",
                        result: try await meter.run(requests) { index in
                            try await redis.connection(index).command(["PING"])
                        }
                    )
                )
            }

            // (b) Queries, and the result sets compared. This process reads the same positions into its own
            // index (the same code), to check the server's audience counts against.
            places.index.invalidate()
            try await places.prepare()
            let moverIDs = Set(movers.map(\.id))
            var agreement: [String] = []
            for (label, radius, useAudience) in [
                ("presence, 100 m shop", 100.0, false), ("presence, 200 m shop", 200.0, false),
                ("audience within 1 km", 1_000.0, true),
            ] {
                let candidates = shops.filter { useAudience || Double($0.location.radiusMeters) == radius }
                rows.append(
                    Row(
                        what: label,
                        system: "Plaza HTTP",
                        result: try await meter.run(requests) { index in
                            let shop = candidates[index % candidates.count]
                            let path =
                                useAudience
                                ? "/v1/businesses/\(shop.business)/audience?radius=1000"
                                : "/v1/businesses/\(shop.business)/presence"
                            try await http.send(index, .GET, path, token: merchantToken)
                        }
                    )
                )
                if let redis {
                    rows.append(
                        Row(
                            what: label,
                            system: "Redis GEOSEARCH",
                            result: try await meter.run(requests) { index in
                                let point = candidates[index % candidates.count].location
                                try await redis.connection(index).command(
                                    [
                                        "GEOSEARCH", "bench", "FROMLONLAT", String(point.longitude),
                                        String(point.latitude), "BYRADIUS",
                                        String(radius), "m",
                                    ])
                            }
                        )
                    )
                }
                if let postgis {
                    rows.append(
                        Row(
                            what: label,
                            system: "PostGIS ST_DWithin",
                            result: try await meter.run(requests) { index in
                                let point = candidates[index % candidates.count].location
                                _ = try await postgis.within(
                                    radius,
                                    latitude: point.latitude,
                                    longitude: point.longitude
                                )
                            }
                        )
                    )
                }
                // Agreement on 20 shops: the same people, but for those within a metre of the circle, where the
                // systems' Earth radii (Redis 6,372,797.6 m, Plaza and PostGIS's sphere 6,371,008.8 m) differ.
                var equal = 0
                for shop in candidates.prefix(20) {
                    let center = shop.location.coordinate
                    let exact = Set(
                        grid.within(radius + 1, of: center).map { town.users[$0.key] }.filter {
                            $0.coordinate.distance(to: center) <= radius - 1
                        }
                        .map(\.id)
                    )
                    let fuzzy = Set(grid.within(radius + 1, of: center).map { town.users[$0.key].id })
                    var sets: [Set<UUID>] = []
                    if useAudience {
                        // The server answers with a count: it must be the size of the set the same index code finds here.
                        let people = Set(
                            places.index.present(
                                within: radius,
                                of: center,
                                freshSince: Date().addingTimeInterval(-600)
                            )
                        )
                        let answer = try PlazaJSON.decoder().decode(
                            Audience.self,
                            from: try await http.get(
                                "/v1/businesses/\(shop.business)/audience?radius=1000",
                                token: merchantToken
                            )
                        )
                        sets.append(answer.count == people.count ? people : [])
                    } else {
                        let body = try await http.get("/v1/businesses/\(shop.business)/presence", token: merchantToken)
                        let listed = try PlazaJSON.decoder().decode(Page<PresentCustomer>.self, from: body).items.map(
                            \.username
                        )
                        let byName = Dictionary(
                            uniqueKeysWithValues: town.users.lazy.filter { fuzzy.contains($0.id) }.map {
                                (Self.username($0.id), $0.id)
                            }
                        )
                        sets.append(Set(listed.compactMap { byName[$0] }))
                    }
                    if let redis {
                        let reply = try await redis.connection(0).command(
                            [
                                "GEOSEARCH", "bench", "FROMLONLAT", String(center.longitude), String(center.latitude),
                                "BYRADIUS", String(radius), "m",
                            ])
                        sets.append(Set(reply.strings.compactMap(UUID.init(uuidString:))))
                    }
                    if let postgis {
                        sets.append(
                            Set(
                                try await postgis.within(radius, latitude: center.latitude, longitude: center.longitude)
                            )
                        )
                    }
                    let agrees = sets.allSatisfy { set in
                        let people = set.subtracting(moverIDs)
                        return exact.isSubset(of: people) && people.isSubset(of: fuzzy)
                    }
                    if agrees {
                        equal += 1
                    } else if options.showDisagreements {
                        print(
                            "disagree \(label): exact \(exact.count) fuzzy \(fuzzy.count) sets \(sets.map { $0.subtracting(moverIDs).count })"
                        )
                    }
                }
                agreement.append(
                    "\(label): \(equal)/\(min(20, candidates.count)) shops give the same people in every system"
                )
            }

            let engine = services.database.engine.rawValue
            var table = [
                "plaza bench geo: \(options.users) people in a \(Int(options.boxMeters / 1_000)) km box, \(options.concurrency) in flight, "
                    + "\(requests) requests per row, \(engine), \(ProcessInfo.processInfo.activeProcessorCount) cores, HTTP client \(options.httpClient.rawValue)",
                "", "| what | system | requests/s | points/s | p50 ms | p99 ms |", "|---|---|---|---|---|---|",
            ]
            for row in rows {
                table.append(
                    "| \(row.what) | \(row.system) | \(String(format: "%.0f", row.result.rate)) | "
                        + "\(row.what.hasPrefix("ingest") ? String(format: "%.0f", row.result.rate * row.unit) : "") | "
                        + "\(String(format: "%.2f", row.result.p50)) | \(String(format: "%.2f", row.result.p99)) |"
                )
            }
            return (lines + [""] + table + [""] + agreement).joined(separator: "\n")
        }
    }
}
