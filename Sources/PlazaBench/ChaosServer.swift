import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlazaServer
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `plaza serve` that `plaza bench chaos` runs, kills with SIGKILL and starts again: this binary's own, on a fixed
/// host and port (so that the clients' retries reach the next process as they would behind a balancer).
final class ChaosServer: Sendable {
    let host: String
    let port: Int
    private let environment: [String: String]
    private let process = LockedBox<Process?>(nil)

    init(storage: PlazaConfiguration.Storage, secretKey: String, host: String, port: Int) {
        var environment = ProcessInfo.processInfo.environment
        switch storage {
        case .sqlite(let path): environment["PLAZA_DATABASE_URL"] = "sqlite:\(path)"
        case .postgres(let url): environment["PLAZA_DATABASE_URL"] = url.absoluteString
        }
        environment["PLAZA_SECRET_KEY"] = secretKey
        environment["PLAZA_HOST"] = host
        environment["PLAZA_PORT"] = String(port)
        environment["PLAZA_LOG_LEVEL"] = environment["PLAZA_LOG_LEVEL"] ?? "critical"
        environment["PLAZA_MODE"] = "production"
        (self.host, self.port, self.environment) = (host, port, environment)
    }

    /// Starts the process and waits (up to two minutes) until `/readyz` answers 200.
    func start(client: HTTPClient) async throws {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["serve"]
        process.environment = environment
        try process.run()
        self.process.set(process)
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                throw ChaosFailure("plaza serve exited with status \(process.terminationStatus) at start")
            }
            var request = HTTPClientRequest(url: "http://\(host):\(port)/readyz")
            request.method = .GET
            if let response = try? await client.execute(request, timeout: .seconds(2)), response.status == .ok {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw ChaosFailure("plaza serve did not become ready on \(host):\(port)")
    }

    /// SIGKILL: no graceful anything, as a crash or an OOM kill.
    func kill() async {
        guard let process = process.get(), process.isRunning else { return }
        Self.signal(process.processIdentifier, SIGKILL)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }

    private static func signal(_ pid: Int32, _ signal: Int32) {
        #if canImport(Glibc)
        _ = Glibc.kill(pid, signal)
        #elseif canImport(Darwin)
        _ = Darwin.kill(pid, signal)
        #endif
    }

    /// SIGTERM, as an operator stops it: true when it exited by itself, with status 0, within 30 s.
    func stop() async -> Bool {
        guard let process = process.get(), process.isRunning else { return true }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        guard !process.isRunning else {
            await kill()
            return false
        }
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}

/// Why chaos could not run (exit 2).
struct ChaosFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A value behind a lock, for the few mutable things a Sendable class holds.
final class LockedBox<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) { self.value = Mutex(value) }

    func get() -> Value { value.withLock { $0 } }
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func update<T: Sendable>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}
