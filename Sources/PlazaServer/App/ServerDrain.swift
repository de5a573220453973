import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The few seconds between SIGTERM and closing the listener (`PLAZA_DRAIN_SECONDS`), for a server behind a proxy:
/// `/readyz` says 503 `shutdown: draining` so that a balancer that asks stops sending here, and every response carries
/// `Connection: close` (the `ConnectionGuard` closes after it), so that no proxy keeps an idle connection that the
/// stop would close just as the proxy sends a request on it (nginx answers that request 502). Then the graceful stop
/// runs as before.
final class ServerDrain: Sendable {
    private let draining = Atomic(false)

    var isDraining: Bool { draining.load(ordering: .relaxed) }

    func start() { draining.store(true, ordering: .relaxed) }
}

/// Waits for SIGTERM, drains for `seconds`, then ends, which stops the whole group gracefully. Any other graceful stop
/// (SIGINT, a service ending) ends it at once.
struct DrainOnSignal: Service {
    let drain: ServerDrain
    let seconds: Double
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sigterm)
        let signalled = await cancelWhenGracefulShutdown {
            for await _ in signals { return true }
            return false
        }
        guard signalled, !Task.isShuttingDownGracefully else { return }
        logger.notice("SIGTERM: draining before the stop", metadata: ["seconds": "\(seconds)"])
        drain.start()
        try? await cancelWhenGracefulShutdown {
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1_000)))
        }
    }
}
