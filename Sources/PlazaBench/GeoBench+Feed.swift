import Foundation
import PlazaServer
import ServiceLifecycle

/// A second process following the ingest on PostgreSQL: the bench process listens to the feed (LISTEN/NOTIFY) as
/// another `plaza serve` would, and its own live index takes each position the server publishes. How soon every
/// upload's position is there says how many positions a second the feed carries, and whether it keeps up.
struct FeedWatch {
    let services: PlazaServices
    private let listener: Task<Void, any Error>

    /// Listening, with the live index loaded; nil on SQLite (one process owns the file).
    static func start(services: PlazaServices) async throws -> FeedWatch? {
        guard case .postgres = services.configuration.storage, let service = services.feedListener else { return nil }
        try await services.places.prepare()
        let listener = Task { try await service.run() }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        while !services.feedIsListening {
            guard clock.now < deadline else {
                listener.cancel()
                throw HTTPPool.BenchFailure(description: "the feed's listener did not connect")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return FeedWatch(services: services, listener: listener)
    }

    /// The moment this process's live index had every person in `newest` at that time or later, or nil once `limit`
    /// passed without it.
    func arrival(of newest: [UUID: Date], limit: Duration) async -> ContinuousClock.Instant? {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var waiting = Array(newest)
        while clock.now < deadline {
            waiting.removeAll { person, time in
                (services.places.index.position(of: person)?.recordedAt ?? .distantPast) >= time
            }
            if waiting.isEmpty { return clock.now }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    func stop() {
        listener.cancel()
    }
}
