import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import SQLKit
import Synchronization
import Testing

/// The database failing as it does in an incident (a full disk, a writer held too long, a server hung or gone) is
/// answered as a fault: 503 `unavailable` or 507 `insufficient_storage` with `Retry-After`, in bounded time, never a
/// 500 or a hang; `/readyz` names what is wrong within two seconds; and once the fault ends, service comes back with
/// nothing acknowledged lost.
@Suite(.serialized) struct DatabaseFaultTests {
    @Test func aFullDiskIsA507AndReadinessSaysSoUntilThereIsRoom() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-full-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A small disk of its own (root mounts tmpfs; CI runs as root), so that filling it harms nothing else.
        try #require(Self.run("/bin/mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", folder.path) == 0, "mount tmpfs")
        defer { _ = Self.run("/bin/umount", "-l", folder.path) }
        let path = folder.appendingPathComponent("plaza.sqlite").path
        try await TestPlaza.withApp(.sqlite, configure: { $0.storage = .sqlite(path: path) }) { client, services in
            let ana = try await AccountsDriver(client).signedIn("ana").accessToken
            let saved = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Ana Saved"),
                token: ana
            )
            #expect(saved.status == .ok)
            // The log starts over empty, so that the next commit needs room the disk no longer has.
            // (The checkpointer may be copying the last commit: a checkpoint then answers busy at once. Wait for it.)
            for _ in 0..<100 {
                let row = try await services.database.sql.raw("PRAGMA wal_checkpoint(TRUNCATE)").first()
                if try row?.decode(column: "busy", as: Int.self) == 0 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let filler = folder.appendingPathComponent("filler").path
            Self.fill(filler)

            let refused = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Ana Lost"),
                token: ana
            )
            #expect(refused.status.code == 507, "\(refused.text)")
            #expect(refused.problem?.code == .insufficientStorage)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 0)
            let (ready, took) = try await Self.readiness(client)
            #expect(ready.status == .serviceUnavailable && took < .seconds(2))
            #expect(ready.text.contains(#""disk":"full""#), "\(ready.text)")

            try FileManager.default.removeItem(atPath: filler)
            #expect(try await Self.readiness(client).response.status == .ok)
            let again = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Ana Again"),
                token: ana
            )
            #expect(again.status == .ok)
            let me = try await client.send(.get, "/v1/me", token: ana)
            #expect(me.text.contains("Ana Again"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aTransactionPastTheTimeoutIsRolledBackAndAnswered503(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, configure: { $0.databaseTimeout = .seconds(1) }) { client, services in
            let ana = try await AccountsDriver(client).signedIn("ana").accessToken
            // Another piece of work keeps a transaction open: SQLite's writer is taken, PostgreSQL's row is locked.
            let holding = Task {
                try? await services.database.transaction { db in
                    try await db.raw("UPDATE users SET display_name = 'Held' WHERE username = 'ana'").run()
                    try await Task.sleep(for: .seconds(3))
                    try await db.raw("SELECT 1").run()
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            let refused = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Ana W."),
                token: ana
            )
            #expect(refused.status == .serviceUnavailable, "\(refused.text)")
            #expect(refused.problem?.code == .unavailable)
            #expect(refused.headers[.retryAfter] != nil)
            #expect(ContinuousClock.now - start < .milliseconds(2_800), "answered before the holder let go")
            await holding.value
            // The holder ran past its own time: rolled back at its next statement, so its change is not there.
            let me = try await client.send(.get, "/v1/me", token: ana)
            #expect(!me.text.contains("Held"), "\(me.text)")
            let later = try await client.send(.patch, "/v1/me", json: ProfileUpdate(displayName: "Ana W."), token: ana)
            #expect(later.status == .ok)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func readinessNamesPendingMigrations(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            #expect(try await Self.readiness(client).response.status == .ok)
            try await services.database.sql.raw(
                "DELETE FROM plaza_migrations WHERE position = (SELECT max(position) FROM plaza_migrations)"
            ).run()
            let (ready, _) = try await Self.readiness(client)
            #expect(ready.status == .serviceUnavailable)
            #expect(ready.text.contains(#""migrations":"pending""#), "\(ready.text)")
        }
    }

    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func aHungPostgreSQLIsAnswered503InBoundedTimeAndRecovers() async throws {
        try await Self.throughLink { client, link, ana in
            link.freeze()
            let start = ContinuousClock.now
            let refused = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Ana H."),
                token: ana
            )
            let took = ContinuousClock.now - start
            #expect(refused.status == .serviceUnavailable, "\(refused.text)")
            #expect(refused.headers[.retryAfter] != nil)
            #expect(took < .seconds(6), "a hung database held the request \(took)")
            let (ready, readyTook) = try await Self.readiness(client)
            #expect(ready.status == .serviceUnavailable && readyTook < .milliseconds(2_500), "\(readyTook)")
            #expect(ready.text.contains(#""database":"timeout""#), "\(ready.text)")
            try await link.heal()
            try await Self.recovers(client, token: ana)
        }
    }

    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func anUnreachablePostgreSQLIsAnswered503AndReadinessSaysSo() async throws {
        try await Self.throughLink { client, link, ana in
            await link.cut()
            let refused = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Ana U."),
                token: ana
            )
            #expect(refused.status == .serviceUnavailable, "\(refused.text)")
            #expect(refused.headers[.retryAfter] != nil)
            let (ready, readyTook) = try await Self.readiness(client)
            #expect(ready.status == .serviceUnavailable && readyTook < .milliseconds(2_500), "\(readyTook)")
            #expect(ready.text.contains(#""database":"unreachable""#), "\(ready.text)")
            try await link.heal()
            try await Self.recovers(client, token: ana)
        }
    }

    @Test(.enabled(if: TestEngine.enabled.contains(.postgres)))
    func terminatedBackendsAreAnswered503OrServedAndTheFeedComesBack() async throws {
        try await Self.throughLink { client, link, ana in
            let services = try #require(Self.services.withLock { $0 })
            // Only this app's backends (other suites share the server): those whose client port is the relay's.
            @Sendable func terminate() async throws {
                try await services.database.sql.raw(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                    WHERE client_port = ANY(\(bind: link.serverSidePorts)) AND pid <> pg_backend_pid()
                    """
                ).run()
            }
            // Writes in flight while an operator ends every connection (`pg_terminate_backend`), three times.
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        let name = ProfileUpdate(displayName: "Ana \(index)")
                        return Int(try await client.send(.patch, "/v1/me", json: name, token: ana).status.code)
                    }
                }
                for _ in 0..<3 {
                    try await terminate()
                    try await Task.sleep(for: .milliseconds(30))
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0 == 200 || $0 == 503 }, "\(answers.sorted())")
            #expect(answers.contains(503), "the terminations were felt: \(answers.sorted())")
            // The listening connection was ended too: readiness says so until it listens again.
            try await terminate()
            var sawDown = false
            for _ in 0..<20 where !sawDown {
                sawDown = try await Self.readiness(client).response.text.contains(#""feed":"down""#)
                if !sawDown { try await Task.sleep(for: .milliseconds(25)) }
            }
            #expect(sawDown, "readiness named the lost feed")
            try await Self.recovers(client, token: ana, acknowledged: "Ana ")
        }
    }

    // MARK: - Helpers

    /// The services of the app `throughLink` runs (for what only the server side can do, as ending backends).
    static let services = Mutex<PlazaServices?>(nil)

    /// A PostgreSQL app whose every connection runs through a `FaultyLink`, with a one-second timeout, and a customer
    /// whose display name "Ana Before" was acknowledged before the fault.
    static func throughLink(
        _ body: @escaping @Sendable (any TestClientProtocol, FaultyLink, String) async throws -> Void
    ) async throws {
        let real = try #require(ProcessInfo.processInfo.environment["PLAZA_TEST_DATABASE_URL"].flatMap(URL.init))
        let link = try await FaultyLink.start(to: real.host ?? "127.0.0.1", port: real.port ?? 5432)
        let port = link.port
        try await TestPlaza.withApp(
            .postgres,
            configure: {
                $0.databaseTimeout = .seconds(1)
                guard case .postgres(let url) = $0.storage else { return }
                var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
                components.host = "127.0.0.1"
                components.port = port
                $0.storage = .postgres(components.url!)
            }
        ) { client, services in
            Self.services.withLock { $0 = services }
            let ana = try await AccountsDriver(client).signedIn("ana").accessToken
            let before = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Ana Before"),
                token: ana
            )
            #expect(before.status == .ok)
            try await body(client, link, ana)
        }
        await link.stop()
    }

    /// Readiness comes back within 30 seconds of the fault's end, writes work again, and the acknowledged write is there.
    static func recovers(
        _ client: any TestClientProtocol,
        token: String,
        acknowledged: String = "Ana Before"
    ) async throws {
        let healed = ContinuousClock.now
        var ready = false
        while !ready, ContinuousClock.now - healed < .seconds(30) {
            ready = try await readiness(client).response.status == .ok
            if !ready { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(ready, "ready again within 30 s")
        print("DatabaseFaultTests: ready again \(ContinuousClock.now - healed) after the fault ended")
        let me = try await client.send(.get, "/v1/me", token: token)
        #expect(me.status == .ok && me.text.contains(acknowledged), "\(me.text)")
        let after = try await client.send(.patch, "/v1/me", json: ProfileUpdate(displayName: "Ana After"), token: token)
        #expect(after.status == .ok)
    }

    static func readiness(_ client: any TestClientProtocol) async throws -> (response: TestResponse, took: Duration) {
        let start = ContinuousClock.now
        let response = try await client.execute(uri: "/readyz", method: .get)
        return (response, ContinuousClock.now - start)
    }

    /// Writes to `path` until the disk refuses.
    static func fill(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0xA5, count: 64 * 1024)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        let byte: [UInt8] = [0]
        while byte.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) > 0 {}
    }

    static func run(_ tool: String, _ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
