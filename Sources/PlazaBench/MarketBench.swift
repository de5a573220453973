import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore
import PlazaServer
import SQLKit

/// `plaza bench market`: the campus marketplace's feed and search under load. A campus with `listings` listings (titles
/// and descriptions from a textbook-and-furniture vocabulary) and `students` students; `clients` clients ask a
/// `plaza serve` of its own for the newest listings, a word search and a filtered, price-sorted search, each beside
/// the same query run straight on the database with as many concurrent tasks. On PostgreSQL it also measures chat:
/// messages sent to one `plaza serve` and delivered live to the recipient listening on another, per second.
public struct MarketBench: Sendable {
    public struct Options: Sendable {
        public var listings = 100_000
        public var students = 200
        public var requests = 2_000
        public var concurrency = 32
        public var messages = 2_000
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

    struct Student: Sendable {
        var identity: Identity
        var token: String
    }

    private func measure(services: PlazaServices, logger: Logger) async throws -> String {
        try await BenchSetup.requireEmpty(services, bench: "market")
        let clock = ContinuousClock()
        let started = clock.now
        let campus = try await services.market.createCampus(
            CampusRequest(
                name: "Bench University",
                domains: ["bench-uni.edu"],
                center: Coordinate(latitude: 48.15, longitude: 11.58)
            )
        )
        var enrolled: [Student] = []
        for index in 0..<options.students {
            let user = UserRecord(
                id: UUID(),
                email: "s\(index)@bench.invalid",
                username: "student\(index)",
                displayName: "Student \(index)",
                passwordHash: "",
                role: .customer,
                emailVerified: true,
                now: Date()
            )
            try await AccountStore().insert(user, on: services.database.sql)
            let identity = Identity(user: user, sessionID: UUID())
            try await services.market.enroll(identity, email: "s\(index)@bench-uni.edu")
            enrolled.append(
                Student(identity: identity, token: try await GeoBench.session(for: user.id, services: services))
            )
        }
        let students = enrolled
        var generator = BenchRandom(seed: 24)
        let now = Date()
        var imported: [ImportedListing] = []
        for index in 0..<options.listings {
            let (title, description, category) = Self.item(&generator)
            imported.append(
                ImportedListing(
                    seller: students[index % students.count].identity.user.id,
                    title: title,
                    description: description,
                    price: Int64.random(in: 1...400, using: &generator) * 100,
                    category: category,
                    condition: ListingCondition.allCases.randomElement(using: &generator) ?? .good,
                    createdAt: now.addingTimeInterval(-Double(index) * 30)
                )
            )
        }
        for start in stride(from: 0, to: imported.count, by: 10_000) {
            try await services.market.importListings(
                Array(imported[start..<min(start + 10_000, imported.count)]),
                campus: campus.id
            )
        }
        // PostgreSQL's autovacuum analyzes a table within a minute of a bulk load; the bench does not wait for it. SQLite keeps
        // no statistics unless asked, and Plaza does not ask: its planner is measured as it runs.
        if case .postgres = services.configuration.storage { try await services.database.sql.raw("ANALYZE").run() }
        var lines = [
            "plaza bench market: \(options.listings) listings on one campus, \(options.students) students, \(options.concurrency) clients, "
                + "\(services.database.engine.rawValue), \(ProcessInfo.processInfo.activeProcessorCount) cores",
            "Seeded in \(String(format: "%.1f", LoadMeter.milliseconds(clock.now - started) / 1_000)) s; each query is "
                + "warmed up with \(options.concurrency * 2) requests first (PostgreSQL analyzed the tables after the load).",
            "",
            "| query | where | requests | requests/s | p50 ms | p99 ms | rows |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        let queries: [(String, String, ListingQuery)] = [
            ("newest", "", ListingQuery()),
            ("words “calculus textbook”", "q=calculus%20textbook", ListingQuery(text: "calculus textbook")),
            (
                "furniture $20–$80, cheapest first", "category=furniture&minPrice=2000&maxPrice=8000&sort=price_asc",
                ListingQuery(category: "furniture", minPrice: 2_000, maxPrice: 8_000, sort: .priceAscending)
            ),
        ]
        let server = try await BenchChildServer(
            storage: services.configuration.storage,
            secretKey: services.configuration.secretKey ?? "",
            logger: logger
        )
        do {
            let http = try await HTTPPool(port: server.port, size: options.concurrency, client: options.httpClient)
            for (name, parameters, query) in queries {
                let path = "/v1/market/listings?limit=20" + (parameters.isEmpty ? "" : "&" + parameters)
                let sample = try PlazaJSON.decoder().decode(
                    Page<Listing>.self,
                    from: try await http.get(path, token: students[0].token)
                ).items.count
                let meter = LoadMeter(concurrency: options.concurrency)
                // A warm-up round (connections opened on both sides, plans cached), not counted.
                _ = try await meter.run(options.concurrency * 2) { index in
                    try await http.send(index, .GET, path, token: students[index % students.count].token)
                }
                let overHTTP = try await meter.run(options.requests) { index in
                    try await http.send(index, .GET, path, token: students[index % students.count].token)
                }
                let market = services.market
                let direct = try await meter.run(options.requests) { index in
                    _ = try await market.feedRows(
                        campus: campus.id,
                        viewer: students[index % students.count].identity.user.id,
                        query,
                        limit: 21
                    )
                }
                lines.append(Self.row(name, "HTTP (plaza serve)", overHTTP, rows: sample))
                lines.append(Self.row(name, "the same query on the database", direct, rows: sample))
            }
            await http.close()
            server.stop()
        } catch {
            server.stop()
            throw error
        }
        lines.append("")
        if case .postgres = services.configuration.storage {
            lines += try await chat(services: services, students: students, campus: campus.id, logger: logger)
        } else {
            lines.append(
                "Chat between two processes needs PostgreSQL (processes share events through it): run this bench there."
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Messages from one student, sent to one `plaza serve`, to another listening on `GET /v1/events` of a second one.
    private func chat(
        services: PlazaServices,
        students: [Student],
        campus: UUID,
        logger: Logger
    ) async throws -> [String] {
        let (seller, buyer) = (students[0], students[1])
        let listing = try await services.market.importListings(
            [
                ImportedListing(
                    seller: seller.identity.user.id,
                    title: "Chat bench lamp",
                    description: "For the chat bench.",
                    price: 1_000,
                    category: "other",
                    condition: .good,
                    createdAt: Date()
                )
            ],
            campus: campus
        )[0]
        let conversation = try await services.market.startConversation(buyer.identity, listing: listing).0.id
        let sending = try await BenchChildServer(
            storage: services.configuration.storage,
            secretKey: services.configuration.secretKey ?? "",
            logger: logger
        )
        let listening = try await BenchChildServer(
            storage: services.configuration.storage,
            secretKey: services.configuration.secretKey ?? "",
            logger: logger
        )
        defer {
            sending.stop()
            listening.stop()
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(listening.port)/v1/events")
        request.headers.add(name: "Accept", value: "text/event-stream")
        request.headers.add(name: "Authorization", value: "Bearer \(seller.token)")
        let stream = try await client.execute(request, timeout: .seconds(600))
        let total = options.messages
        let clock = ContinuousClock()
        let receiver = Task { () -> (Int, ContinuousClock.Instant) in
            var received = 0
            var last = clock.now
            var pending = ""
            for try await chunk in stream.body {
                pending += String(buffer: chunk)
                while let end = pending.range(of: "\n\n") {
                    let event = pending[..<end.lowerBound]
                    pending = String(pending[end.upperBound...])
                    if event.contains("\"market.message\"") {
                        received += 1
                        last = clock.now
                        if received == total { return (received, last) }
                    }
                }
            }
            return (received, last)
        }
        // The listener is connected once its first event (`ready`) could arrive: give it a moment.
        try await Task.sleep(for: .milliseconds(500))
        let http = try await HTTPPool(port: sending.port, size: options.concurrency, client: options.httpClient)
        let start = clock.now
        let meter = LoadMeter(concurrency: options.concurrency)
        let sent = try await meter.run(total) { index in
            try await http.send(
                index,
                .POST,
                "/v1/market/conversations/\(conversation)/messages",
                token: buyer.token,
                json: ByteBuffer(string: "{\"text\":\"Message \(index): is it still available?\"}")
            )
        }
        await http.close()
        let outcome = try await withThrowingTaskGroup(of: (Int, ContinuousClock.Instant)?.self) { group in
            group.addTask { try await receiver.value }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            receiver.cancel()
            return first
        }
        try? await client.shutdown()
        let (received, last) = outcome ?? (0, clock.now)
        let seconds = LoadMeter.milliseconds(last - start) / 1_000
        return [
            "Chat: \(total) messages sent by \(options.concurrency) clients to one plaza serve, delivered live on `GET /v1/events` of another:",
            "",
            "| sent | sent/s | send p50 ms | send p99 ms | delivered | delivered/s (first send to last delivery) |",
            "|---:|---:|---:|---:|---:|---:|",
            "| \(sent.operations) | \(Int(sent.rate.rounded())) | \(String(format: "%.2f", sent.p50)) | \(String(format: "%.2f", sent.p99)) | "
                + "\(received) | \(Int((Double(received) / max(seconds, 0.001)).rounded())) |",
        ]
    }

    static func row(_ query: String, _ route: String, _ result: LoadMeter.Result, rows: Int) -> String {
        "| \(query) | \(route) | \(result.operations) | \(Int(result.rate.rounded())) | \(String(format: "%.2f", result.p50)) | "
            + "\(String(format: "%.2f", result.p99)) | \(rows) |"
    }

    static let things: [(String, String, [String])] = [
        (
            "textbooks", "textbook",
            [
                "Calculus", "Organic chemistry", "Microeconomics", "Linear algebra", "Statistics", "Physics", "Biology",
                "History",
            ]
        ),
        (
            "furniture", "furniture",
            ["Desk", "Chair", "Bookshelf", "Bed frame", "Dresser", "Nightstand", "Sofa", "Table"]
        ),
        (
            "electronics", "electronics",
            ["Laptop", "Monitor", "Headphones", "Keyboard", "Speaker", "Tablet", "Printer", "Router"]
        ),
        (
            "dorm_supplies", "dorm",
            ["Desk lamp", "Mini fridge", "Kettle", "Rug", "Mirror", "Laundry basket", "Fan", "Hangers"]
        ),
        (
            "clothing", "clothing",
            ["Winter coat", "Rain jacket", "Hoodie", "Boots", "Sneakers", "Scarf", "Backpack", "Dress"]
        ),
    ]
    static let adjectives = [
        "Used", "Like new", "Sturdy", "Compact", "Large", "Small", "Vintage", "Barely used", "Clean", "Cheap",
    ]
    static let extras = [
        "Pick up near the library.", "Some wear on the corners.", "Comes with the original box.", "Smoke-free home.",
        "Moving out, must go this week.", "Works perfectly.", "Selling because I graduate.", "Can deliver on campus.",
    ]

    /// A listing's title, description and category from the vocabulary.
    static func item(_ generator: inout BenchRandom) -> (String, String, String) {
        let (category, word, names) = things.randomElement(using: &generator)!
        let name = names.randomElement(using: &generator)!
        let adjective = adjectives.randomElement(using: &generator)!
        let title =
            "\(adjective) \(name.lowercased())"
            + (category == "textbooks" ? " textbook, \(Int.random(in: 2...12, using: &generator))th edition" : "")
        let description =
            "\(name) (\(word)). \(extras.randomElement(using: &generator)!) \(extras.randomElement(using: &generator)!)"
        return (title, description, category)
    }
}
