import Foundation
import PlazaCore
import SQLKit

extension PlacesService {
    func sharing(_ identity: Identity) async throws -> LocationSharing {
        try await locations.sharing(user: identity.user.id, on: database.sql)
    }

    /// Changes who may see the user. Turning sharing off ends every stay at once and forgets the newest
    /// position; other changes republish it (the map dot appears or goes).
    func setSharing(
        _ identity: Identity,
        _ request: LocationSharing,
        now: Date = Date()
    ) async throws -> LocationSharing {
        try await prepare()
        let user = identity.user
        return try await events.transaction { db in
            let current = try await locations.sharing(user: user.id, on: db)
            let sharing = LocationSharing(
                level: request.level,
                zoneDisplay: request.zoneDisplay ?? current.zoneDisplay ?? .decoy
            )
            try await locations.setSharing(user: user.id, sharing, now: now, on: db)
            var messages: [FeedMessage] = []
            if sharing.level == .off {
                messages += try await endStays(of: user, at: now, on: db)
                try await db.delete(from: "live_positions").where("user_id", .equal, user.id).run()
                messages.append(.forget(user.id))
            } else {
                messages += try await republish(user, sharing: sharing, on: db)
            }
            return (sharing, messages)
        }
    }

    /// A renamed user appears under the new name in presence lists at once, not at their next point.
    func userChanged(_ user: UserRecord) async throws {
        try await events.transaction { db in
            let sharing = try await locations.sharing(user: user.id, on: db)
            return ((), sharing.level == .off ? [] : try await republish(user, sharing: sharing, on: db))
        }
    }

    /// The user's newest position again, as it is now (another level, another name).
    private func republish(
        _ user: UserRecord,
        sharing: LocationSharing,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        guard let live = try await locations.livePosition(user: user.id, on: db) else { return [] }
        let open = try await stays.openStays(user: user.id, on: db)
        return [
            .position(
                try await livePosition(
                    user: user,
                    live.coordinate,
                    at: live.recordedAt,
                    zone: live.zone,
                    sharing: sharing,
                    stays: open,
                    on: db
                )
            )
        ]
    }

    /// Stores recorded points. Points inside a private zone keep only the zone; points newer than the newest
    /// one known move the user's live position and stays, in time order. Uploads arriving together share one
    /// transaction (`UploadBatcher`).
    func upload(_ identity: Identity, _ upload: LocationUpload, now: Date = Date()) async throws -> LocationUploadResult
    {
        let errors = PlacesRules.uploadProblems(upload, now: now, retention: configuration.retention)
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        try await prepare()
        let service = self
        return try await uploads.submit(UploadJob(user: identity.user, points: upload.points, now: now)) { jobs in
            await service.runUploads(jobs)
        }
    }

    /// The live-index entry for a position, with the dot the map may show and the open stays.
    func livePosition(
        user: UserRecord,
        _ coordinate: Coordinate,
        at time: Date,
        zone: UUID?,
        sharing: LocationSharing,
        stays open: [StayRecord],
        on db: any SQLDatabase
    ) async throws -> LivePosition {
        var published: Coordinate?
        if sharing.level == .map {
            if let zone {
                published = sharing.zoneDisplay == .hidden ? nil : try await locations.decoy(zone: zone, on: db)
            } else {
                published = obfuscator.publish(coordinate, user: user.id, at: time)
            }
        }
        return LivePosition(
            userId: user.id,
            username: user.username,
            displayName: user.displayName,
            latitude: coordinate.latitude,
            longitude: coordinate.longitude,
            recordedAt: time,
            level: sharing.level,
            zoneId: zone,
            published: published,
            stays: zone == nil
                ? open.map { OpenStay(locationId: $0.locationId, enteredAt: $0.enteredAt) }.sorted {
                    $0.enteredAt < $1.enteredAt
                } : []
        )
    }

    // MARK: History

    func history(
        _ identity: Identity,
        from: Date?,
        to: Date?,
        now: Date = Date()
    ) async throws -> GeoJSONFeatureCollection<HistoryPointProperties> {
        let start = from ?? now.addingTimeInterval(-configuration.retention)
        let end = to ?? now.addingTimeInterval(60)
        guard start < end else { throw PlazaError.validation(field: "from", phrase("Must be before `to`.")) }
        let points = try await locations.points(
            user: identity.user.id,
            from: start,
            to: end,
            limit: 100_000,
            on: database.sql
        )
        return GeoJSONFeatureCollection(
            features: points.map { point, zone in
                GeoJSONFeature(
                    coordinate: point.coordinate,
                    properties: HistoryPointProperties(
                        recordedAt: point.recordedAt,
                        accuracy: point.accuracy,
                        privateZone: zone
                    )
                )
            }
        )
    }

    /// Deletes every point, the newest position and the stays; the user leaves every presence list now.
    func deleteHistory(_ identity: Identity, now: Date = Date()) async throws {
        try await prepare()
        let user = identity.user
        try await events.transaction { db in
            var messages = try await endStays(of: user, at: now, on: db)
            try await locations.deleteHistory(user: user.id, on: db)
            messages.append(.forget(user.id))
            return ((), messages)
        }
    }

    /// An account was deleted: its stays end (announced), and its location data, zones and memberships go.
    func eraseUser(_ user: UserRecord, now: Date = Date()) async throws {
        try await prepare()
        try await events.transaction { db in
            var messages = try await endStays(of: user, at: now, on: db)
            try await locations.erase(user: user.id, on: db)
            try await businesses.store.removeMemberships(user: user.id, on: db)
            messages += [.forget(user.id), .catalogChanged]
            return ((), messages)
        }
    }

    /// Removes raw points past the retention, old stays and old line-wait reports, and drops people silent for
    /// an hour from the live index (a full scan, hence here, every ten minutes, not in the sweep).
    func purgeExpired(now: Date = Date()) async throws -> Int {
        index.prune(olderThan: now.addingTimeInterval(-3_600))
        let cutoff = now.addingTimeInterval(-configuration.retention)
        let purged = try await locations.purgePoints(before: cutoff, on: database.sql)
        try await stays.purge(before: cutoff, on: database.sql)
        try await stays.purgePeople(before: now.addingTimeInterval(-Self.popularWindow), on: database.sql)
        try await stays.purgeLineWaits(
            before: now.addingTimeInterval(-8 * 7 * 86_400),
            anonymizeBefore: now.addingTimeInterval(-86_400),
            on: database.sql
        )
        return purged
    }
}
