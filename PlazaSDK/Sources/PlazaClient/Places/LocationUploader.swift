import Foundation
import PlazaCore

/// Where a `LocationUploader` keeps points until the server has them, so that an app killed offline
/// resumes where it stopped.
public protocol LocationQueueStore: Sendable {
    func load() async -> [LocationPoint]
    func save(_ points: [LocationPoint]) async
    /// The person's private zones as last fetched (nil: never), so that a point recorded offline after a relaunch is
    /// still dropped on the phone when it lies inside one.
    func loadZones() async -> [PrivateZone]?
    func saveZones(_ zones: [PrivateZone]) async
}

extension LocationQueueStore {
    /// A store that keeps no zones: the uploader then knows them once it has fetched them in this run.
    public func loadZones() async -> [PrivateZone]? { nil }
    public func saveZones(_ zones: [PrivateZone]) async {}
}

/// Keeps the queue in memory only (lost when the app ends).
public actor InMemoryLocationQueue: LocationQueueStore {
    private var points: [LocationPoint] = []
    private var zones: [PrivateZone]?
    public init() {}
    public func load() -> [LocationPoint] { points }
    public func save(_ points: [LocationPoint]) { self.points = points }
    public func loadZones() -> [PrivateZone]? { zones }
    public func saveZones(_ zones: [PrivateZone]) { self.zones = zones }
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

    /// The zones sit beside the queue, in `<name>.zones` (protect both as the app protects its other files).
    var zonesURL: URL { url.appendingPathExtension("zones") }

    public func loadZones() async -> [PrivateZone]? {
        guard let data = try? Data(contentsOf: zonesURL) else { return nil }
        return try? PlazaJSON.decoder().decode([PrivateZone].self, from: data)
    }

    public func saveZones(_ zones: [PrivateZone]) async {
        try? PlazaJSON.encoder().encode(zones).write(to: zonesURL, options: .atomic)
    }
}

/// Records points while offline and sends them in batches when asked.
///
/// A batch leaves the queue only once the server has answered for it, so a crash or a lost answer means
/// the batch is sent again, which the server ignores as duplicates: no point is lost or stored twice.
/// Points the server finds impossible (older than its retention, say) are dropped rather than retried forever.
///
/// A point inside one of the person's private zones never leaves the phone: `record` drops it before it is queued
/// (with the zones fetched last, kept in the queue's store), and `flush` fetches the zones again (at most every
/// `zoneRefreshInterval`) and drops any queued point inside one before sending. The server applies the same rule
/// to whatever reaches it.
public actor LocationUploader {
    /// What one `flush` did.
    public struct Report: Sendable, Equatable {
        public var accepted = 0
        public var duplicates = 0
        public var rejected: [FieldError] = []
        /// Queued points dropped because they lie inside a private zone fetched since they were recorded.
        public var droppedInZones = 0
    }

    private let client: PlazaClient
    private let store: any LocationQueueStore
    private let batchSize: Int
    private let zoneRefreshInterval: TimeInterval
    private var queue: [LocationPoint]?
    private var zones: [PrivateZone]?
    private var zonesFetchedAt: Date?
    private var flushing: Task<Report, any Error>?

    public init(
        client: PlazaClient,
        store: any LocationQueueStore = InMemoryLocationQueue(),
        batchSize: Int = 100,
        zoneRefreshInterval: TimeInterval = 600
    ) {
        self.client = client
        self.store = store
        self.batchSize = max(1, min(batchSize, PlacesRules.pointsPerUpload.upperBound))
        self.zoneRefreshInterval = zoneRefreshInterval
    }

    /// Adds the points outside every known private zone to the queue (and its store); returns how many were kept.
    /// When the zones were never fetched, it tries once; offline, the points wait and `flush` filters them.
    @discardableResult
    public func record(_ points: [LocationPoint]) async -> Int {
        if await knownZones() == nil { try? await refreshPrivateZones() }
        let kept = Self.outside(await knownZones() ?? [], points)
        guard !kept.isEmpty else { return 0 }
        var current = await loaded()
        current += kept
        queue = current
        await store.save(current)
        return kept.count
    }

    @discardableResult
    public func record(_ point: LocationPoint) async -> Int {
        await record([point])
    }

    /// Fetches the person's private zones, keeps them for `record`, and drops queued points inside one. Call it after
    /// the person adds or moves a zone; `flush` calls it too.
    @discardableResult
    public func refreshPrivateZones() async throws -> Int {
        let fetched = try await client.privateZones()
        return await usePrivateZones(fetched)
    }

    /// Uses zones the app already has (say, just edited); returns how many queued points were dropped.
    @discardableResult
    public func usePrivateZones(_ fetched: [PrivateZone]) async -> Int {
        zones = fetched
        zonesFetchedAt = Date()
        await store.saveZones(fetched)
        let current = await loaded()
        let kept = Self.outside(fetched, current)
        guard kept.count != current.count else { return 0 }
        queue = kept
        await store.save(kept)
        return current.count - kept.count
    }

    static func outside(_ zones: [PrivateZone], _ points: [LocationPoint]) -> [LocationPoint] {
        guard !zones.isEmpty else { return points }
        return points.filter { point in !zones.contains { $0.contains(point.coordinate) } }
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
        if zonesFetchedAt.map({ Date().timeIntervalSince($0) >= zoneRefreshInterval }) ?? true {
            report.droppedInZones = try await refreshPrivateZones()
        }
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

    private func knownZones() async -> [PrivateZone]? {
        if let zones { return zones }
        zones = await store.loadZones()
        return zones
    }

    private func loaded() async -> [LocationPoint] {
        if let queue { return queue }
        let stored = await store.load()
        queue = stored
        return stored
    }
}
