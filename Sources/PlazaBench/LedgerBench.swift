import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore
import PlazaDemo
import PlazaServer
import SQLKit

/// `plaza bench ledger`: `accounts` funded users, then transfers between random pairs (uniform, and with hot
/// accounts) by `concurrency` clients over HTTP to a `plaza serve` of its own; beside it, the same ledger SQL
/// run directly: an in-process loop on SQLite, or pgbench with a custom script on the same PostgreSQL.
public struct LedgerBench: Sendable {
    public struct Options: Sendable {
        public var accounts = 10_000
        public var transfers = 20_000
        public var concurrency = 32
        /// Half of all payers and half of all payees are among these few accounts in the "hot" rows.
        public var hotAccounts = 10
        /// pgbench's path (found under /usr/lib/postgresql when not given).
        public var pgbench: String?
        /// Plaza and its peer take turns this many times per row.
        public var rounds = 4
        public var httpClient = BenchHTTPClient.nio
        public init() {}
    }

    /// Who pays whom how much, the same list for Plaza and the SQLite loop.
    struct Pair: Sendable {
        var from: Int
        var to: Int
        var amount: Int64
    }

    /// The same SQL without Plaza around it.
    enum Peer {
        case sqlite(LedgerSQLiteLoop)
        case pgbench(LedgerPgbench)
        case none

        func system(clients: Int) -> String {
            switch self {
            case .sqlite: "SQLite directly (same SQL, one in-process loop)"
            case .pgbench: "pgbench (same SQL, custom script, \(clients) clients)"
            case .none: ""
            }
        }
    }

    struct Row {
        var mode: String
        var system: String
        var result: LoadMeter.Result
    }

    var configuration: PlazaConfiguration
    let options: Options
    static let funding: Int64 = 100_000_000

    public init(configuration: PlazaConfiguration, options: Options) {
        self.configuration = configuration
        self.options = options
    }

    public func run() async throws -> String {
        try await BenchSetup.withServices(configuration) { services, directory in
            try await measure(services: services, directory: directory, logger: BenchSetup.logger)
        }
    }

    static func pairs(_ count: Int, accounts: Int, hot: Int?, seed: UInt64) -> [Pair] {
        var random = BenchRandom(seed: seed)
        return (0..<count).map { _ in
            let from =
                hot.map { Int.random(in: 0..<2, using: &random) == 0 ? Int.random(in: 0..<$0, using: &random) : -1 }
                ?? -1
            let payer = from >= 0 ? from : Int.random(in: 0..<accounts, using: &random)
            var payee =
                hot.map { Int.random(in: 0..<2, using: &random) == 0 ? Int.random(in: 0..<$0, using: &random) : -1 }
                ?? -1
            if payee < 0 || payee == payer { payee = (payer + Int.random(in: 1..<accounts, using: &random)) % accounts }
            return Pair(from: payer, to: payee, amount: Int64.random(in: 1...100, using: &random))
        }
    }

    private func measure(services: PlazaServices, directory: URL, logger: Logger) async throws -> String {
        try await BenchSetup.requireEmpty(services, bench: "ledger")
        var lines: [String] = []
        let clock = ContinuousClock()
        var started = clock.now
        let users = try await LedgerBenchData.seed(
            accounts: options.accounts,
            funding: Self.funding,
            services: services
        )
        lines.append(
            "Seeded \(users.count) funded accounts with sessions in \(String(format: "%.1f", LoadMeter.milliseconds(clock.now - started) / 1_000)) s."
        )
        let modes: [(String, Int?)] = [
            ("uniform", nil), ("hot (\(options.hotAccounts) accounts in half the pairs)", options.hotAccounts),
        ]
        var rows: [Row] = []

        // The peer runs while Plaza's server waits idle: rounds of each, one after the other, so that a machine that
        // speeds up or slows down during the run (a shared VM does) weighs on both alike.
        let peer: Peer
        switch services.configuration.storage {
        case .sqlite(let path):
            peer = .sqlite(LedgerSQLiteLoop(path: path, logger: logger))
        case .postgres(let url):
            if let pgbench = options.pgbench ?? LedgerPgbench.find() {
                let pgbench = LedgerPgbench(path: pgbench, url: url, directory: directory)
                try await pgbench.prepare(users: users, on: services.database)
                peer = .pgbench(pgbench)
            } else {
                lines.append("pgbench not found: no PostgreSQL peer in this run.")
                peer = .none
            }
        }
        var peerRows: [Row] = []
        let server = try await BenchChildServer(
            storage: services.configuration.storage,
            secretKey: services.configuration.secretKey ?? "",
            logger: logger
        )
        do {
            let http = try await HTTPPool(port: server.port, size: options.concurrency, client: options.httpClient)
            let meter = LoadMeter(concurrency: options.concurrency)
            // Warm-up: connections, statement caches, the token cache.
            let warm = Self.pairs(min(500, options.transfers), accounts: users.count, hot: nil, seed: 1)
            _ = try await meter.run(warm.count) {
                try await Self.transfer(warm[$0], users: users, http: http, worker: $0)
            }
            for (index, (mode, hot)) in modes.enumerated() {
                let pairs = Self.pairs(options.transfers, accounts: users.count, hot: hot, seed: 100 + UInt64(index))
                var plaza: [LoadMeter.Result] = []
                var other: [LoadMeter.Result] = []
                let rounds = max(1, min(options.rounds, pairs.count))
                for round in 0..<rounds {
                    let slice = Array(pairs[(pairs.count * round / rounds)..<(pairs.count * (round + 1) / rounds)])
                    plaza.append(
                        try await meter.run(slice.count) {
                            try await Self.transfer(slice[$0], users: users, http: http, worker: $0)
                        }
                    )
                    switch peer {
                    case .sqlite(let loop): other.append(try await loop.run(slice, users: users))
                    case .pgbench(let pgbench):
                        other.append(
                            try pgbench.run(
                                transfers: slice.count,
                                clients: options.concurrency,
                                accounts: users.count,
                                hot: hot
                            )
                        )
                    case .none: break
                    }
                }
                rows.append(
                    Row(
                        mode: mode,
                        system: "Plaza HTTP (\(options.concurrency) clients, \(options.httpClient.rawValue))",
                        result: LoadMeter.Result(combining: plaza)
                    )
                )
                if !other.isEmpty {
                    peerRows.append(
                        Row(
                            mode: mode,
                            system: peer.system(clients: options.concurrency),
                            result: LoadMeter.Result(combining: other)
                        )
                    )
                }
            }
            // The floor: the server's cheapest request on the same connections (goal: uniform ≥ 0.4 × this).
            let floor = try await meter.run(options.transfers) {
                try await http.send($0, .GET, "/healthz", token: users[0].token)
            }
            rows.append(
                Row(
                    mode: "floor",
                    system: "Plaza HTTP GET /healthz (\(options.concurrency) clients, \(options.httpClient.rawValue))",
                    result: floor
                )
            )
            if let uniform = rows.first(where: { $0.mode == "uniform" }) {
                lines.append(
                    "Uniform transfers ÷ GET /healthz: \(String(format: "%.2f", uniform.result.rate / floor.rate)) ×."
                )
            }
            await http.close()
            server.stop()
        } catch {
            server.stop()
            throw error
        }
        rows += peerRows
        lines.append(
            "Each row is \(options.rounds) rounds, taken in turn with the other system's on the same transfers' count."
        )

        started = clock.now
        let report = try await services.verifyLedger()
        lines.append(
            "plaza ledger verify after all runs (\(String(format: "%.1f", LoadMeter.milliseconds(clock.now - started) / 1_000)) s): "
                + (report.problems.isEmpty ? "sound, \(report.entries) entries." : "\(report.problems.count) PROBLEMS")
        )
        return Self.table(rows, lines: lines, engine: services.database.engine)
    }

    static func transfer(_ pair: Pair, users: [LedgerBenchData.User], http: HTTPPool, worker: Int) async throws {
        var body = ByteBuffer()
        body.writeString(#"{"to":"\#(users[pair.to].username)","amount":\#(pair.amount),"currency":"USD"}"#)
        try await http.send(
            worker,
            .POST,
            "/v1/transfers",
            token: users[pair.from].token,
            json: body,
            idempotencyKey: UUID().uuidString
        )
    }

    static func table(_ rows: [Row], lines: [String], engine: DatabaseEngine) -> String {
        var out =
            lines + [
                "", "| mode | system (\(engine.rawValue)) | transfers | transfers/s | p50 ms | p99 ms | Plaza ÷ peer |",
                "|---|---|---:|---:|---:|---:|---:|",
            ]
        for row in rows {
            let plaza = rows.first { $0.mode == row.mode && $0.system.hasPrefix("Plaza") }
            let ratio =
                plaza.map {
                    row.system.hasPrefix("Plaza") ? "" : String(format: "%.2f ×", $0.result.rate / row.result.rate)
                } ?? ""
            out.append(
                "| \(row.mode) | \(row.system) | \(row.result.operations) | \(Int(row.result.rate.rounded())) | \(String(format: "%.2f", row.result.p50)) | "
                    + "\(String(format: "%.2f", row.result.p99)) | \(ratio) |"
            )
        }
        return out.joined(separator: "\n")
    }
}
