import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import PlazaDemo
import PlazaServer

/// A Plaza server in a process of its own (this binary's `plaza serve`) on the database a bench has just
/// filled: the bench process is then only a load generator, as it is for the peers (Redis, PostGIS), which
/// also run in processes of their own.
final class BenchChildServer: Sendable {
    let port: Int
    private let process: Process

    /// Starts `plaza serve` on `storage` with `secretKey` (so that the bench's tokens are valid) and waits
    /// until it answers `/readyz`. `binary`: another build's `plaza` instead of this one (before and after).
    init(storage: PlazaConfiguration.Storage, secretKey: String, logger: Logger, binary: String? = nil) async throws {
        port = try await Self.freePort()
        var environment = ProcessInfo.processInfo.environment
        switch storage {
        case .sqlite(let path): environment["PLAZA_DATABASE_URL"] = "sqlite:\(path)"
        case .postgres(let url): environment["PLAZA_DATABASE_URL"] = url.absoluteString
        }
        environment["PLAZA_SECRET_KEY"] = secretKey
        environment["PLAZA_HOST"] = "127.0.0.1"
        environment["PLAZA_PORT"] = String(port)
        environment["PLAZA_LOG_LEVEL"] = "error"
        environment["PLAZA_MODE"] = "production"
        let process = Process()
        process.executableURL =
            binary.map { URL(fileURLWithPath: $0) } ?? Bundle.main.executableURL
            ?? URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["serve"]
        process.environment = environment
        try process.run()
        self.process = process
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        while clock.now < deadline {
            guard process.isRunning else {
                throw HTTPPool.BenchFailure(description: "plaza serve exited with status \(process.terminationStatus)")
            }
            if let connection = try? await BenchHTTPConnection(port: port) {
                let reply = try? await connection.send(.GET, "/readyz", token: "")
                await connection.close()
                if reply?.status == 200 { return }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw HTTPPool.BenchFailure(description: "plaza serve did not become ready on port \(port)")
    }

    /// SIGTERM, as an operator stops it, and waits for it to finish its connections.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    private static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(
            host: "127.0.0.1",
            port: 0
        ).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
