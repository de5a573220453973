import Foundation
import PlazaCore
import PlazaServer
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `plaza serve` in a process of its own, for tests that must kill a server mid-work.
public final class ChildPlaza: Sendable {
    public let baseURL: URL
    private let process: Mutex<Process?>
    private let environment: [String: String]

    /// The `plaza` executable built beside this test binary (`swift build --build-tests` builds both).
    public static func binary() throws -> URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidates = [
            executable.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        .map { $0.appendingPathComponent("plaza") }
        if let override = ProcessInfo.processInfo.environment["PLAZA_BINARY"] { return URL(fileURLWithPath: override) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw AccountsDriver.DriverError(
                description: "no plaza binary next to \(executable.path); build with swift build --build-tests"
            )
        }
        return found
    }

    /// Starts `plaza serve` on `storage` and waits until it is ready.
    public init(storage: PlazaConfiguration.Storage, secretKey: String, extra: [String: String] = [:]) async throws {
        let port = try Self.freePort()
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        var environment = ProcessInfo.processInfo.environment
        switch storage {
        case .sqlite(let path): environment["PLAZA_DATABASE_URL"] = "sqlite:\(path)"
        case .postgres(let url): environment["PLAZA_DATABASE_URL"] = url.absoluteString
        }
        environment["PLAZA_SECRET_KEY"] = secretKey
        environment["PLAZA_PORT"] = String(port)
        environment["PLAZA_LOG_LEVEL"] = "error"
        environment["PLAZA_BCRYPT_COST"] = "4"
        environment["PLAZA_MODE"] = "dev"
        environment["PLAZA_PAYMENT_GATEWAY"] = "sandbox"
        // Test accounts are minutes old: the usual limits, not those of new accounts.
        environment["PLAZA_NEW_ACCOUNT_DAYS"] = "0"
        environment.merge(extra) { $1 }
        self.environment = environment
        process = Mutex(nil)
        try await start()
    }

    /// (Re)starts the process on the same port and database.
    public func start() async throws {
        let child = Process()
        child.executableURL = try Self.binary()
        child.arguments = ["serve"]
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        process.withLock { $0 = child }
        // Generous: the full suite runs hundreds of tests beside this start on two cores (a start took over 60 s there;
        // alone it takes about one).
        let deadline = ContinuousClock.now + .seconds(180)
        while ContinuousClock.now < deadline {
            guard child.isRunning else {
                throw AccountsDriver.DriverError(description: "plaza serve exited with \(child.terminationStatus)")
            }
            if let (_, response) = try? await URLSession.shared.data(from: baseURL.appendingPathComponent("readyz")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw AccountsDriver.DriverError(description: "plaza serve was not ready within 180 s")
    }

    /// `kill -9`: no shutdown, no flush, as a power cut or the OOM killer would do it.
    public func kill() {
        guard let child = process.withLock({ $0 }) else { return }
        Foundation.kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
    }

    /// The port it listens on.
    public var port: Int { baseURL.port ?? 0 }

    /// SIGTERM, as an orchestrator stops a server, without waiting; see `waitForExit`.
    public func sendTerminate() {
        guard let child = process.withLock({ $0 }), child.isRunning else { return }
        Foundation.kill(child.processIdentifier, SIGTERM)
    }

    /// Waits up to `timeout` for the process to end: its exit status, or nil while it still runs.
    public func waitForExit(timeout: Duration) async throws -> Int32? {
        guard let child = process.withLock({ $0 }) else { return nil }
        let deadline = ContinuousClock.now + timeout
        while child.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return child.isRunning ? nil : child.terminationStatus
    }

    public func stop() {
        guard let child = process.withLock({ $0 }), child.isRunning else { return }
        child.terminate()
        child.waitUntilExit()
    }

    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw AccountsDriver.DriverError(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension TestPlaza {
    /// A fresh, migrated database of `engine` with verified accounts `usernames` (password `AccountsDriver.password`),
    /// for a server in another process; `body` gets its storage and the secret key the server must use.
    public static func withPreparedStorage<T: Sendable>(
        _ engine: TestEngine,
        accounts usernames: [String],
        _ body: @escaping @Sendable (PlazaConfiguration.Storage, String) async throws -> T
    ) async throws -> T {
        let (storage, cleanup) = try await engine.freshStorage()
        defer { Task { await cleanup() } }
        let configuration = configuration(storage: storage)
        let services = try await PlazaServices.open(configuration, logger: logger)
        try await services.withDatabase {
            try await services.migrate()
            for name in usernames {
                try await services.createAccount(
                    email: "\(name)@example.com",
                    username: name,
                    displayName: name.capitalized,
                    password: AccountsDriver.password,
                    role: .customer
                )
            }
        }
        try await services.database.close()
        return try await body(storage, configuration.secretKey ?? "")
    }

    /// The ledger of a database a child server wrote, checked from here.
    public static func verifyLedger(_ storage: PlazaConfiguration.Storage) async throws -> LedgerReport {
        let services = try await PlazaServices.open(configuration(storage: storage), logger: logger)
        do {
            let report = try await services.withDatabase { try await services.verifyLedger() }
            try await services.database.close()
            return report
        } catch {
            try? await services.database.close()
            throw error
        }
    }
}
