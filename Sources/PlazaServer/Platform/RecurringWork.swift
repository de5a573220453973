import Foundation
import Logging
import ServiceLifecycle

/// A domain's maintenance, run every `interval` seconds beside the server until it shuts down. A failed round is
/// logged and the next one runs as usual. Every process may run it: the work must be conditional (each step done
/// once, whoever gets there first).
struct RecurringWork: Service {
    /// What the log calls it ("market maintenance failed").
    let name: String
    let interval: TimeInterval
    let logger: Logger
    let work: @Sendable () async throws -> Void

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // First wait: at start the database's own service may not be running yet.
                try await Task.sleep(for: .seconds(interval))
                do {
                    try await PlazaTracer.span("\(name) maintenance") { _ in try await work() }
                } catch {
                    logger.warning("\(name) maintenance failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }
}
