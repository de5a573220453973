import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PlazaServer
import SQLKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `plaza bench chaos`: a seeded workload of deliberately conflicting money requests against a `plaza serve` of its
/// own that it kills with SIGKILL at seeded moments (on PostgreSQL first terminating the server's backends, and running
/// `--restart-database` at every other kill), replaying every unanswered request with its key until it is answered.
/// At the end nothing acknowledged may be lost, nothing doubled, and `plaza verify` must be clean (issue 36).
///
/// The workload (`ChaosWorkload.swift`), every domain at once: transfers around rings of three people (cycles), some
/// sent twice at once with one key, some again later; market deals whose payment races a cancel and the handshake
/// (`ChaosMarket.swift`); card orders paid with one key twice and with two keys, racing a cancel (`ChaosCards.swift`);
/// coupon claims racing a cap of three (`ChaosCoupons.swift`); charges at a shop's counter whose approval races a cancel,
/// a decline or a second device, then refunds racing each other (`ChaosCharges.swift`); loyalty cards punched by two
/// counters scanning each code at once and redeemed by two at once (`ChaosLoyalty.swift`); auctions whose bids race
/// their close (`ChaosAuction.swift`). Each domain's answers are checked in its `…Check` file.
public struct ChaosBench: Sendable {
    public struct Options: Sendable {
        /// The same seed gives the same operations and kill moments (interleavings vary with the machine).
        public var seed = UInt64.random(in: 1...999_999)
        public var operations = 10_000
        public var kills = 3
        /// Database faults under a server left running (PostgreSQL only): its backends terminated, and at every other
        /// one `restartDatabase` run; every request must still be answered within seconds.
        public var faults = 0
        /// Run (through `/bin/sh -c`) at every other kill, such as `pg_ctl restart -m fast`.
        public var restartDatabase: String?
        public var concurrency = 8
        public var accounts = 24
        public init() {}
    }

    /// One request of the workload: who pays whom, and how it is sent.
    struct Operation: Sendable {
        enum Style: Sendable { case once, twice, againLater }
        var from: Int
        var to: Int
        var amount: Int64
        var key: String
        var style: Style
    }

    /// The final answer to an operation: the transfer it made, a refusal, or none even after every retry.
    enum Answer: Sendable, Equatable {
        case made(UUID)
        case refused(Int)
        case unanswered
    }

    let configuration: PlazaConfiguration
    let options: Options

    public init(configuration: PlazaConfiguration, options: Options) {
        self.configuration = configuration
        self.options = options
    }

    /// Runs it, printing as it goes; true when nothing was lost or doubled and verify is clean.
    public func run(print say: @escaping @Sendable (String) -> Void) async throws -> Bool {
        say("chaos: seed \(options.seed)")
        var configuration = configuration
        if configuration.secretKey == nil { configuration.secretKey = Secrets.randomToken() + Secrets.randomToken() }
        let services = try await PlazaServices.open(configuration, logger: BenchSetup.logger)
        do {
            let clean = try await services.withDatabase { try await self.drive(services, say: say) }
            try await services.database.close()
            return clean
        } catch {
            try? await services.database.close()
            throw error
        }
    }

    /// Seeds every domain, runs the workload against the server through the kills, then checks.
    private func drive(_ services: PlazaServices, say: @escaping @Sendable (String) -> Void) async throws -> Bool {
        try await services.migrate()
        try await BenchSetup.requireEmpty(services, bench: "chaos")
        let work = Self.workload(options, accounts: options.accounts)
        let shoppers = work.compactMap(\.order).map(\.shopper)
        let claimers = work.compactMap(\.coupon).flatMap(\.claimers)
        // The shop's owner, when there are charges, is the last person.
        let owner =
            work.contains { $0.charge != nil || $0.punchCard != nil }
            ? options.accounts + shoppers.count + claimers.count : nil
        let users = try await LedgerBenchData.seed(
            accounts: options.accounts + shoppers.count + claimers.count + (owner == nil ? 0 : 1),
            funding: 20_000,
            services: services
        )
        let market = try await ChaosMarket.seed(
            users: Array(users.prefix(options.accounts)),
            deals: work.compactMap(\.deal),
            auctions: work.compactMap(\.auction),
            services: services
        )
        let cards = try await ChaosCards.seed(shoppers: shoppers.map { users[$0] }, services: services)
        let coupons = try await ChaosCoupons.seed(rounds: work.compactMap(\.coupon), users: users, services: services)
        let shop = try await ChaosShop.seed(owner: owner, users: users, services: services)
        let kills = Self.killMoments(options)
        let server = ChaosServer(
            storage: services.configuration.storage,
            secretKey: services.configuration.secretKey ?? "",
            host: configuration.host,
            port: configuration.port
        )
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let run = ChaosRun(
            work: work,
            users: users,
            market: market,
            cards: cards,
            coupons: coupons,
            shop: shop,
            client: client,
            base: "http://\(configuration.host):\(configuration.port)",
            closeAuction: { id in
                // A day ahead: past every auction's end (a day after it was seeded), as the minute's sweep would see it then.
                (try? await services.market.closeAuction(listing: id, now: Date().addingTimeInterval(2 * 86_400)))
                    ?? false
            }
        )
        let stoppedCleanly: Bool
        do {
            try await server.start(client: client)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<max(1, options.concurrency) { group.addTask { await run.work() } }
                group.addTask {
                    try await self.kill(server, at: kills, run: run, services: services, client: client, say: say)
                }
                group.addTask {
                    try await self.fault(at: Self.faultMoments(options), run: run, services: services, say: say)
                }
                try await group.waitForAll()
            }
            stoppedCleanly = await server.stop()
        } catch {
            await server.kill()
            try? await client.shutdown()
            throw error
        }
        try? await client.shutdown()
        return try await check(run, services: services, stoppedCleanly: stoppedCleanly, say: say)
    }

    /// At each moment: on PostgreSQL the server's backends are terminated under load, then the server is killed, the
    /// database restarted (every other time, when asked), and a new server started; clients wait while it is down.
    private func kill(
        _ server: ChaosServer,
        at moments: [Int],
        run: ChaosRun,
        services: PlazaServices,
        client: HTTPClient,
        say: @Sendable (String) -> Void
    ) async throws {
        for (index, moment) in moments.enumerated() {
            while run.started < moment, !run.finished { try await Task.sleep(for: .milliseconds(20)) }
            guard !run.finished else { return }
            if services.database.engine == .postgres {
                let ended = (try? await services.database.terminateOtherBackends()) ?? 0
                say(
                    "chaos: kill \(index + 1) at operation \(moment): terminated \(ended) PostgreSQL connections under load"
                )
                try await Task.sleep(for: .seconds(1))
            }
            run.down.set(true)
            await server.kill()
            say("chaos: kill \(index + 1) at operation \(moment): SIGKILL")
            if let command = options.restartDatabase, index % 2 == 0 {
                let status = try await Self.shell(command)
                say("chaos: ran `\(command)`: exit \(status)")
            }
            try await server.start(client: client)
            run.down.set(false)
        }
    }

    /// At each moment, with the server left running: its PostgreSQL backends terminated, and at every other one the
    /// database restarted (when asked). Nothing on SQLite, which has no server to lose.
    private func fault(
        at moments: [Int],
        run: ChaosRun,
        services: PlazaServices,
        say: @Sendable (String) -> Void
    ) async throws {
        guard services.database.engine == .postgres else { return }
        for (index, moment) in moments.enumerated() {
            while run.started < moment, !run.finished { try await Task.sleep(for: .milliseconds(20)) }
            guard !run.finished else { return }
            let ended = (try? await services.database.terminateOtherBackends()) ?? 0
            say(
                "chaos: fault \(index + 1) at operation \(moment): terminated \(ended) PostgreSQL connections, the server left running"
            )
            if let command = options.restartDatabase, index % 2 == 1 {
                let status = try await Self.shell(command)
                say("chaos: fault \(index + 1): ran `\(command)` under load: exit \(status)")
            }
        }
    }

    static func faultMoments(_ options: Options) -> [Int] {
        var random = BenchRandom(seed: options.seed &+ 2)
        let span = max(1, options.operations * 8 / 10)
        return (0..<options.faults).map { _ in options.operations / 10 + Int(random.next() % UInt64(span)) }.sorted()
    }

    /// Compares every answer with what the database holds, then runs verify.
    private func check(
        _ run: ChaosRun,
        services: PlazaServices,
        stoppedCleanly: Bool,
        say: @Sendable (String) -> Void
    ) async throws -> Bool {
        var tally = ChaosTally()
        try await tally.checkTransfers(run, services: services, say: say)
        try await tally.checkDeals(run, services: services, say: say)
        try await tally.checkOrders(run, services: services, say: say)
        try await tally.checkClaims(run, services: services, say: say)
        try await tally.checkCharges(run, services: services, say: say)
        try await tally.checkPunchCards(run, services: services, say: say)
        try await tally.checkAuctions(run, services: services, say: say)
        let (lost, doubled, unanswered) = (tally.lost, tally.doubled, tally.unanswered)
        let report = try await services.verify()
        for finding in report.findings { say(finding.description) }
        if !stoppedCleanly { say("chaos: SIGTERM at the end did not stop the server cleanly") }
        // Every answer, faults included, should come within seconds: a fault is an error to retry, never a hang.
        let slowest = Double(run.slowest.components.seconds) + Double(run.slowest.components.attoseconds) / 1e18
        say("chaos: \(run.retried) requests answered only after a retry")
        say("chaos: slowest answer \(String(format: "%.1f", slowest)) s\(slowest > 20 ? " (too slow: a hang?)" : "")")
        let clean = lost == 0 && doubled == 0 && unanswered == 0 && report.findings.isEmpty && stoppedCleanly
        say(
            "chaos: \(run.work.count) operations, \(options.kills) kills, \(lost) lost, \(doubled) doubled, "
                + (report.findings.isEmpty ? "verify clean" : "verify broken")
                + (unanswered > 0 ? ", \(unanswered) unanswered" : "")
        )
        return clean
    }

    /// The items at whose start the server is killed: seeded, between the first and the last tenth of the run.
    static func killMoments(_ options: Options) -> [Int] {
        var random = BenchRandom(seed: options.seed &+ 1)
        let span = max(1, options.operations * 8 / 10)
        return (0..<options.kills).map { _ in options.operations / 10 + Int(random.next() % UInt64(span)) }.sorted()
    }

    /// `/bin/sh -c command`'s exit status. Spawned and reaped by hand: Foundation's `Process` left a `pg_ctl restart`
    /// it had started unreaped and `waitUntilExit` waiting forever.
    static func shell(_ command: String) async throws -> Int32 {
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ)
        guard spawned == 0 else { throw ChaosFailure("could not run `\(command)`: error \(spawned)") }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 { throw ChaosFailure("lost `\(command)` (waitpid: \(errno))") }
            try await Task.sleep(for: .milliseconds(50))
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
