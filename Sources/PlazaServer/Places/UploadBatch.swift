import Foundation
import PlazaCore
import SQLKit

/// A checked upload waiting for its batch.
struct UploadJob: Sendable {
    let user: UserRecord
    let points: [LocationPoint]
    let now: Date
}

/// Group commit for location uploads: uploads that arrive while a batch is being written wait and go together in the
/// next transaction, and each step is one statement for all of them: what is known of them (settings, zones, newest
/// positions, open stays: see `uploaderStates`), their points, their newest positions, and the stays' sightings. Each upload still succeeds or fails alone: one whose sharing is off changes
/// nothing, and a batch that fails for any other reason runs again one upload at a time. Lanes: one for SQLite's
/// single writer; a few for PostgreSQL, whose batches lock their people's settings rows in id order first.
typealias UploadBatcher = Batcher<UploadJob, LocationUploadResult>

extension PlacesService {
    /// Runs `jobs` in one transaction; when that fails as a whole, each alone. One outcome per job, in order.
    func runUploads(_ jobs: [UploadJob]) async -> [UploadBatcher.Outcome] {
        do {
            return try await events.transaction { db in
                var outcomes = [UploadBatcher.Outcome?](repeating: nil, count: jobs.count)
                var messages: [FeedMessage] = []
                for round in Self.rounds(jobs) {
                    messages += try await applyUploads(round.map { ($0, jobs[$0]) }, outcomes: &outcomes, on: db)
                }
                return (outcomes.map { $0! }, messages)
            }
        } catch {
            guard jobs.count > 1 else { return [.failure(error)] }
            var outcomes: [UploadBatcher.Outcome] = []
            for job in jobs { outcomes += await runUploads([job]) }
            return outcomes
        }
    }

    /// The jobs' positions split into rounds in which each person appears once: a person's second upload in a batch
    /// applies after the first, as it would have alone.
    static func rounds(_ jobs: [UploadJob]) -> [[Int]] {
        var rounds: [[Int]] = []
        var seen: [UUID: Int] = [:]
        for (index, job) in jobs.enumerated() {
            let round = seen[job.user.id, default: 0]
            seen[job.user.id] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append(index)
        }
        return rounds
    }

    /// One round: points stored (those inside a private zone keep only the zone), and the points newer than each
    /// person's newest one move their live position and stays, in time order.
    private func applyUploads(
        _ round: [(index: Int, job: UploadJob)],
        outcomes: inout [UploadBatcher.Outcome?],
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        let states = try await locations.uploaderStates(
            users: round.map(\.job.user.id),
            engine: database.engine,
            on: db
        )
        var sharers: [(index: Int, job: UploadJob, state: UploaderState)] = []
        for (index, job) in round {
            guard let state = states[job.user.id], state.sharing.level != .off else {
                outcomes[index] = .failure(PlazaError.sharingOff)
                continue
            }
            sharers.append((index, job, state))
        }
        guard !sharers.isEmpty else { return [] }
        let placed = sharers.map { sharer in
            sharer.job.points.map { Self.place($0, user: sharer.job.user.id, zones: sharer.state.zones) }
        }
        let accepted = try await locations.insertPoints(placed.flatMap { $0 }, on: db)
        var moving: [(sharer: Int, points: [PlacedPoint])] = []
        for (offset, sharer) in sharers.enumerated() {
            let count = accepted[sharer.job.user.id] ?? 0
            outcomes[sharer.index] = .success(
                LocationUploadResult(accepted: count, duplicates: sharer.job.points.count - count)
            )
            let newer = Self.newer(placed[offset], than: sharer.state.liveAt)
            if !newer.isEmpty { moving.append((offset, newer)) }
        }
        guard !moving.isEmpty else { return [] }
        try await locations.setLivePositions(moving.map { $0.points.last! }, on: db)
        let tracked = moving.map { item in
            let sharer = sharers[item.sharer]
            return TrackedStays(
                tracker: track(
                    item.points,
                    open: sharer.state.openStays,
                    user: sharer.job.user.id,
                    now: sharer.job.now
                ),
                user: sharer.job.user,
                now: sharer.job.now
            )
        }
        let stayMessages = try await applyStays(tracked, on: db)
        var messages: [FeedMessage] = []
        for (item, (stayed, followOn)) in zip(moving, zip(tracked, stayMessages)) {
            let sharer = sharers[item.sharer]
            let newest = item.points.last!
            messages.append(
                .position(
                    try await livePosition(
                        user: sharer.job.user,
                        newest.point.coordinate,
                        at: newest.point.recordedAt,
                        zone: newest.zone?.id,
                        sharing: sharer.state.sharing,
                        stays: Array(stayed.tracker.open.values),
                        on: db
                    )
                )
            )
            messages += followOn
        }
        return messages
    }

    /// A point as stored: inside one of the person's private zones it becomes the zone's centre, without accuracy.
    static func place(_ point: LocationPoint, user: UUID, zones: [ZoneRecord]) -> PlacedPoint {
        guard let zone = zones.first(where: { $0.contains(point.coordinate) }) else {
            return PlacedPoint(user: user, point: point, zone: nil)
        }
        return PlacedPoint(
            user: user,
            point: LocationPoint(
                latitude: zone.center.latitude,
                longitude: zone.center.longitude,
                accuracy: nil,
                recordedAt: point.recordedAt
            ),
            zone: zone
        )
    }

    /// The points recorded after `newest`, oldest first, one per time (the first sent).
    static func newer(_ points: [PlacedPoint], than newest: Date?) -> [PlacedPoint] {
        let sorted = points.filter { newest == nil || $0.point.recordedAt > newest! }.sorted {
            $0.point.recordedAt < $1.point.recordedAt
        }
        return sorted.enumerated().filter {
            $0.offset == 0 || sorted[$0.offset - 1].point.recordedAt != $0.element.point.recordedAt
        }
        .map(\.element)
    }

    /// A tracker run over a person's new points. Points may arrive late (recorded offline), but not so late that an
    /// upload could invent visits in the past.
    private func track(_ points: [PlacedPoint], open: [StayRecord], user: UUID, now: Date) -> StayTracker {
        var tracker = StayTracker(user: user, open: open, catalog: businesses.catalog)
        for placed in points where placed.point.recordedAt >= now.addingTimeInterval(-PlacesRules.stayBackfill) {
            tracker.advance(
                .init(
                    coordinate: placed.point.coordinate,
                    accuracy: placed.point.accuracy,
                    time: placed.point.recordedAt,
                    inZone: placed.zone != nil
                )
            )
        }
        tracker.endQuiet(now: now)
        return tracker
    }
}
