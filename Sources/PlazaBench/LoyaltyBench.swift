import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore
import PlazaServer
import SQLKit

/// `plaza bench loyalty`: `customers` people holding a coffee card sync `punches` punches they scanned offline, in
/// batches of up to `batch`, by `concurrency` clients over HTTP to a `plaza serve` of its own: each punch's Ed25519
/// signature and window checked, each counted exactly once. Then every batch again, as an app whose answers were lost
/// would: all duplicates, nothing counted twice. Beside it, its peer in the same run: bare Ed25519 verifications of
/// the same tokens on the same cores, the ceiling any punch can reach here.
public struct LoyaltyBench: Sendable {
    public struct Options: Sendable {
        public var customers = 1_000
        public var punches = 10_000
        public var batch = 50
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

    /// One customer's batch, encoded once.
    struct Batch: Sendable {
        var token: String
        var body: ByteBuffer
        var punches: Int
    }

    private func measure(services: PlazaServices, logger: Logger) async throws -> String {
        try await BenchSetup.requireEmpty(services, bench: "loyalty")
        let clock = ContinuousClock()
        let started = clock.now
        let perCustomer = max(1, options.punches / max(1, options.customers))
        let (batches, tokens, keys) = try await Self.seed(
            services: services,
            customers: options.customers,
            perCustomer: perCustomer,
            batch: options.batch
        )
        let total = batches.reduce(0) { $0 + $1.punches }
        var lines = [
            "plaza bench loyalty: \(options.customers) customers × \(perCustomer) offline punches = \(total), batches of up to \(options.batch) "
                + "(\(batches.count) syncs), \(options.concurrency) clients, \(services.database.engine.rawValue), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores",
            "Seeded in \(String(format: "%.1f", LoadMeter.milliseconds(clock.now - started) / 1_000)) s.",
        ]

        let server = try await BenchChildServer(
            storage: services.configuration.storage,
            secretKey: services.configuration.secretKey ?? "",
            logger: logger
        )
        let first: LoadMeter.Result
        let again: LoadMeter.Result
        do {
            let http = try await HTTPPool(port: server.port, size: options.concurrency, client: options.httpClient)
            let meter = LoadMeter(concurrency: options.concurrency)
            first = try await meter.run(batches.count) { index in
                try await http.send(
                    index,
                    .POST,
                    "/v1/me/loyalty-punches",
                    token: batches[index].token,
                    json: batches[index].body
                )
            }
            let counted = try await Self.counted(services)
            again = try await meter.run(batches.count) { index in
                try await http.send(
                    index,
                    .POST,
                    "/v1/me/loyalty-punches",
                    token: batches[index].token,
                    json: batches[index].body
                )
            }
            let recounted = try await Self.counted(services)
            lines.append(
                "Counted exactly once: \(counted.rows) punch rows and \(counted.onCards) punches on cards after the first sync, "
                    + "\(recounted.rows) and \(recounted.onCards) after every batch was sent again (expected \(total))."
            )
            guard counted.rows == total, counted.onCards == total, recounted == counted else {
                throw HTTPPool.BenchFailure(
                    description: "punches were lost or counted twice: \(counted) then \(recounted), expected \(total)"
                )
            }
            await http.close()
            server.stop()
        } catch {
            server.stop()
            throw error
        }
        let peer = try await Self.verifyRate(tokens: tokens, keys: keys, count: total, concurrency: options.concurrency)
        lines += [
            "",
            "| what | punches | punches/s | p50 ms per sync | p99 ms per sync | Plaza ÷ peer |",
            "|---|---:|---:|---:|---:|---:|",
            Self.row("POST /v1/me/loyalty-punches, first sync (Plaza HTTP)", first, per: total, peer: peer),
            Self.row("the same batches again, all duplicate (Plaza HTTP)", again, per: total, peer: peer),
            "| bare Ed25519 verify of the same tokens (peer) | \(total) | \(Int(peer.rounded())) | | | |",
        ]
        return lines.joined(separator: "\n")
    }

    static func row(_ what: String, _ result: LoadMeter.Result, per punches: Int, peer: Double) -> String {
        let rate = Double(punches) / result.seconds
        return
            "| \(what) | \(punches) | \(Int(rate.rounded())) | \(String(format: "%.2f", result.p50)) | \(String(format: "%.2f", result.p99)) | "
            + "\(String(format: "%.2f", rate / peer)) |"
    }

    /// A merchant's café with a 10-punch card, tokens of `perCustomer` past hours (the offline scans, within the sync
    /// grace and an hour apart, so the velocity rule lets each count), and every customer holding a card with those
    /// scans queued under ids of their own.
    static func seed(
        services: PlazaServices,
        customers: Int,
        perCustomer: Int,
        batch: Int
    ) async throws -> ([Batch], [SignedPunchToken], [LoyaltySigningKey]) {
        try await services.createAccount(
            email: "shop@bench.invalid",
            username: "benchshop",
            displayName: "Bench Café",
            password: UUID().uuidString + UUID().uuidString,
            role: .merchant,
            checkPolicy: false
        )
        guard let merchant = try await AccountStore().user(login: "benchshop", on: services.database.sql) else {
            throw HTTPPool.BenchFailure(description: "the bench's merchant was not created")
        }
        let owner = Identity(user: merchant, sessionID: UUID())
        let business = try await services.businesses.createBusiness(
            owner,
            CreateBusinessRequest(name: "Bench Café", category: .cafe)
        )
        let location = try await services.businesses.addLocation(
            owner,
            business: business.id,
            LocationRequest(name: "Square", address: "1 Square", latitude: 48.137, longitude: 11.575)
        )
        let program = try await services.loyalty.createProgram(
            owner,
            business: business.id,
            LoyaltyProgramRequest(title: "Coffee card", punchesRequired: max(perCustomer, 1), reward: "A coffee")
        )
        var tokens: [String] = []
        for hour in 1...perCustomer {
            tokens.append(
                try await services.loyalty.punchToken(
                    owner,
                    business: business.id,
                    program: program.id,
                    location: location.id,
                    now: Date().addingTimeInterval(-Double(hour) * 3_600)
                ).token
            )
        }
        let users = try await LedgerBenchData.seed(accounts: customers, funding: 1, services: services)
        var batches: [Batch] = []
        for user in users {
            guard let record = try await AccountStore().user(login: user.username, on: services.database.sql) else {
                continue
            }
            let card = try await services.loyalty.takeCard(
                Identity(user: record, sessionID: UUID()),
                program: program.id
            )
            let scans = tokens.map { PunchSubmission(cardId: card.id, token: $0, scannedAt: Date()) }
            for start in stride(from: 0, to: scans.count, by: max(1, batch)) {
                let slice = Array(scans[start..<min(start + batch, scans.count)])
                batches.append(
                    Batch(
                        token: user.token,
                        body: ByteBuffer(bytes: try PlazaJSON.encoder().encode(PunchBatch(punches: slice))),
                        punches: slice.count
                    )
                )
            }
        }
        return (batches, tokens.compactMap(SignedPunchToken.init), program.signingKeys)
    }

    /// Punch rows, and punches on cards (the sum the customers see).
    static func counted(_ services: PlazaServices) async throws -> (rows: Int, onCards: Int) {
        let db = services.database.sql
        let rows =
            try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("loyalty_punches")
            .first()?
            .decode(column: "n", as: Int.self) ?? 0
        let cards = try await db.select().column("punches").from("loyalty_cards").all().reduce(0) {
            $0 + (try $1.decode(column: "punches", as: Int.self))
        }
        return (rows, cards)
    }

    /// Ed25519 verifications per second of the tokens, `count` in all, over `concurrency` tasks: each looks its key up
    /// by id, decodes it and checks the signature, as the server does per punch.
    static func verifyRate(
        tokens: [SignedPunchToken],
        keys: [LoyaltySigningKey],
        count: Int,
        concurrency: Int
    ) async throws -> Double {
        let raw = Dictionary(
            uniqueKeysWithValues: keys.compactMap { key in Data(base64URL: key.publicKey).map { (key.keyId, $0) } }
        )
        let clock = ContinuousClock()
        let start = clock.now
        let valid = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var ok = 0
                    for index in stride(from: worker, to: count, by: concurrency) {
                        let token = tokens[index % tokens.count]
                        if let bytes = raw[token.payload.keyId],
                            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: bytes),
                            key.isValidSignature(token.signature, for: token.payloadBytes)
                        {
                            ok += 1
                        }
                    }
                    return ok
                }
            }
            return await group.reduce(0, +)
        }
        guard valid == count else {
            throw HTTPPool.BenchFailure(description: "only \(valid) of \(count) tokens verified")
        }
        return Double(count) / (LoadMeter.milliseconds(clock.now - start) / 1_000)
    }
}
