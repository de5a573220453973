import Foundation
import PlazaCore

/// Where a `LocationUploader` keeps points until the server has them, so that an app killed offline
/// resumes where it stopped.
public protocol LocationQueueStore: Sendable {
    func load() async -> [LocationPoint]
    func save(_ points: [LocationPoint]) async
}

/// Keeps the queue in memory only (lost when the app ends).
public actor InMemoryLocationQueue: LocationQueueStore {
    private var points: [LocationPoint] = []
    public init() {}
    public func load() -> [LocationPoint] { points }
    public func save(_ points: [LocationPoint]) { self.points = points }
}

/// Keeps the queue in a JSON file (written atomically), for uploads that survive a restart.
public struct FileLocationQueue: LocationQueueStore {
    public let url: URL
    public init(url: URL) { self.url = url }

    public func load() async -> [LocationPoint] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? PlazaJSON.decoder().decode([LocationPoint].self, from: data)) ?? []
    }

    public func save(_ points: [LocationPoint]) async {
        try? PlazaJSON.encoder().encode(points).write(to: url, options: .atomic)
    }
}

/// Records points while offline and sends them in batches when asked.
///
/// A batch leaves the queue only once the server has answered for it, so a crash or a lost answer means
/// the batch is sent again, which the server ignores as duplicates: no point is lost or stored twice.
/// Points the server finds impossible (older than its retention, say) are dropped rather than retried forever.
public actor LocationUploader {
    /// What one `flush` did.
    public struct Report: Sendable, Equatable {
        public var accepted = 0
        public var duplicates = 0
        public var rejected: [FieldError] = []
    }

    private let client: PlazaClient
    private let store: any LocationQueueStore
    private let batchSize: Int
    private var queue: [LocationPoint]?
    private var flushing: Task<Report, any Error>?

    public init(client: PlazaClient, store: any LocationQueueStore = InMemoryLocationQueue(), batchSize: Int = 100) {
        self.client = client
        self.store = store
        self.batchSize = max(1, min(batchSize, PlacesRules.pointsPerUpload.upperBound))
    }

    /// Adds points to the queue (and its store).
    public func record(_ points: [LocationPoint]) async {
        var current = await loaded()
        current += points
        queue = current
        await store.save(current)
    }

    public func record(_ point: LocationPoint) async {
        await record([point])
    }

    /// Points waiting to be sent.
    public var pending: Int {
        get async { await loaded().count }
    }

    /// Sends every queued point, batch by batch. A network failure or a refusal other than impossible points
    /// (sharing turned off, signed out) stops it with the error; what was not sent stays queued.
    @discardableResult
    public func flush() async throws -> Report {
        if let flushing { return try await flushing.value }
        let task = Task { try await self.sendAll() }
        flushing = task
        defer { flushing = nil }
        return try await task.value
    }

    private func sendAll() async throws -> Report {
        var report = Report()
        while true {
            let current = await loaded()
            guard !current.isEmpty else { return report }
            let batch = Array(current.prefix(batchSize))
            var sent = batch
            do {
                let result = try await client.uploadLocations(batch)
                report.accepted += result.accepted
                report.duplicates += result.duplicates
            } catch let error as PlazaClientError where error.code == .validationFailed {
                // Drop the points named in the problem and send the rest of the batch again.
                let bad = Set(error.fieldErrors.compactMap { Self.pointIndex($0.field) })
                guard !bad.isEmpty else { throw error }
                report.rejected += error.fieldErrors
                sent = batch.enumerated().filter { !bad.contains($0.offset) }.map(\.element)
                if !sent.isEmpty {
                    let result = try await client.uploadLocations(sent)
                    report.accepted += result.accepted
                    report.duplicates += result.duplicates
                }
            }
            // Only points recorded earlier than the batch's end were sent; later ones stay.
            var remaining = await loaded()
            remaining.removeFirst(min(batch.count, remaining.count))
            queue = remaining
            await store.save(remaining)
        }
    }

    /// `points.12.latitude` → 12.
    static func pointIndex(_ field: String) -> Int? {
        let parts = field.split(separator: ".")
        guard parts.count >= 2, parts[0] == "points" else { return nil }
        return Int(parts[1])
    }

    private func loaded() async -> [LocationPoint] {
        if let queue { return queue }
        let stored = await store.load()
        queue = stored
        return stored
    }
}
