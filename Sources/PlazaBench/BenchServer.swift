import Foundation
import Logging
import PlazaDemo
import PlazaServer
import ServiceLifecycle

/// A whole Plaza on a loopback port and a fresh database (a temporary SQLite file unless the configuration
/// names PostgreSQL), for the benches: `body` gets the services and the port, then the server stops cleanly.
enum BenchServer {
    static func run(
        _ configuration: PlazaConfiguration,
        prepare: (inout PlazaConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (PlazaServices, Int, Logger) async throws -> String
    ) async throws -> String {
        var configuration = configuration
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "plaza-bench-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        if case .sqlite = configuration.storage {
            configuration.storage = .sqlite(path: directory.appendingPathComponent("bench.sqlite").path)
        }
        configuration.port = 0
        configuration.host = "127.0.0.1"
        prepare(&configuration)
        var logger = Logger(label: "plaza-bench")
        logger.logLevel = .warning
        let services = try await PlazaServices.open(configuration, logger: logger)
        let port = PortBox()
        let app = try buildApplication(services, onListening: { await port.set($0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let bound = await port.wait()
            let report: String
            do {
                report = try await body(services, bound, logger)
            } catch {
                tasks.cancelAll()
                throw error
            }
            // Let the server finish its connections, so it stops as cleanly as `plaza serve` on SIGTERM.
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return report
        }
    }
}

/// The port the server bound, once it is listening.
actor PortBox {
    private var port: Int?
    private var waiters: [CheckedContinuation<Int, Never>] = []

    func set(_ value: Int) {
        port = value
        for waiter in waiters { waiter.resume(returning: value) }
        waiters.removeAll()
    }

    func wait() async -> Int {
        if let port { return port }
        return await withCheckedContinuation { waiters.append($0) }
    }
}
