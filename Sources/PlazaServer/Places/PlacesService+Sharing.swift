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
    /// one known move the user's live position and stays, in time order.
    func upload(_ identity: Identity, _ upload: LocationUpload, now: Date = Date()) async throws -> LocationUploadResult
    {
        let errors = PlacesRules.uploadProblems(upload, now: now, retention: configuration.retention)
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        try await prepare()
        let user = identity.user
        let engine = database.engine
        return try await events.transaction { db in
            try await locations.lockUser(user.id, engine: engine, on: db)
            let sharing = try await locations.sharing(user: user.id, on: db)
            guard sharing.level != .off else { throw PlazaError.sharingOff }
            let zones = try await locations.zones(user: user.id, on: db)
            let placed: [(point: LocationPoint, zone: ZoneRecord?)] = upload.points.map { point in
                guard let zone = zones.first(where: { $0.contains(point.coordinate) }) else { return (point, nil) }
                return (
                    LocationPoint(
                        latitude: zone.center.latitude,
                        longitude: zone.center.longitude,
                        accuracy: nil,
                        recordedAt: point.recordedAt
                    ), zone
                )
            }
            let accepted = try await locations.insertPoints(
                user: user.id,
                placed.map { ($0.point, $0.zone?.id) },
                on: db
            )
            let result = LocationUploadResult(accepted: accepted, duplicates: upload.points.count - accepted)
            let live = try await locations.livePosition(user: user.id, on: db)
            var newer = placed.filter { live == nil || $0.point.recordedAt > live!.recordedAt }.sorted {
                $0.point.recordedAt < $1.point.recordedAt
            }
            newer = newer.enumerated().filter {
                $0.offset == 0 || newer[$0.offset - 1].point.recordedAt != $0.element.point.recordedAt
            }.map(
                \.element
            )
            guard let newest = newer.last else { return (result, []) }
            try await locations.setLivePosition(user: user.id, point: newest.point, zone: newest.zone?.id, on: db)
            var tracker = StayTracker(
                user: user.id,
                open: try await stays.openStays(user: user.id, on: db),
                catalog: businesses.catalog
            )
            // Points may arrive late (recorded offline), but not so late that an upload could invent visits in the past.
            for (point, zone) in newer where point.recordedAt >= now.addingTimeInterval(-PlacesRules.stayBackfill) {
                tracker.advance(
                    .init(
                        coordinate: point.coordinate,
                        accuracy: point.accuracy,
                        time: point.recordedAt,
                        inZone: zone != nil
                    )
                )
            }
            tracker.endQuiet(now: now)
            var messages = try await applyStays(tracker, user: user, now: now, on: db)
            messages.insert(
                .position(
                    try await livePosition(
                        user: user,
                        newest.point.coordinate,
                        at: newest.point.recordedAt,
                        zone: newest.zone?.id,
                        sharing: sharing,
                        stays: Array(tracker.open.values),
                        on: db
                    )
                ),
                at: 0
            )
            return (result, messages)
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

    /// Writes what a tracker decided and returns the events it causes: presence for the business's staff,
    /// `nearby.business` for the user. Only live changes are announced, not those of an old batch.
    func applyStays(
        _ tracker: StayTracker,
        user: UserRecord,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        var announced: [(type: String, stay: StayRecord, at: Date)] = []
        let liveSince = now.addingTimeInterval(-2 * PlacesRules.presenceFreshness)
        for change in tracker.changes {
            switch change {
            case .entered(let stay):
                try await stays.insert(stay, on: db)
                if stay.enteredAt >= now.addingTimeInterval(-PlacesRules.presenceFreshness) {
                    announced.append((PlazaEventType.presenceEntered, stay, stay.enteredAt))
                }
            case .exited(let stay, let time):
                guard try await closeStay(stay, at: time, on: db) else { continue }
                if stay.lastSeenAt >= liveSince { announced.append((PlazaEventType.presenceExited, stay, time)) }
            }
        }
        for stay in tracker.open.values { try await stays.touch(stay.id, lastSeen: stay.lastSeenAt, on: db) }
        return try await presenceEvents(announced, username: user.username, displayName: user.displayName, on: db)
    }

    /// Ends every open stay of `user` at `time` (sharing off, history deleted, account erased, a new zone).
    func endStays(of user: UserRecord, at time: Date, on db: any SQLDatabase) async throws -> [FeedMessage] {
        var tracker = StayTracker(
            user: user.id,
            open: try await stays.openStays(user: user.id, on: db),
            catalog: businesses.catalog
        )
        tracker.endAll(at: time)
        return try await applyStays(tracker, user: user, now: time, on: db)
    }

    /// Closes the stay once (false when another process did) and counts it as a visit when it lasted long enough.
    func closeStay(_ stay: StayRecord, at time: Date, on db: any SQLDatabase) async throws -> Bool {
        guard try await stays.close(stay.id, at: time, on: db) else { return false }
        if time.timeIntervalSince(stay.enteredAt) >= PlacesRules.minimumVisit {
            // One visit per person and hour; the cell's distinct people decide whether it is shown at all.
            let hourStart = Self.hourStart(stay.enteredAt)
            let (weekday, hour) = PopularTimesTable.slot(hourStart, configuration.calendar)
            let mark = secrets.hash("crowd:\(stay.userId):\(stay.locationId):\(weekday):\(hour)")
            if try await stays.markPerson(
                mark,
                location: stay.locationId,
                weekday: weekday,
                hour: hour,
                hourStart: hourStart,
                on: db
            ) {
                try await stays.countVisit(location: stay.locationId, hourStart: hourStart, on: db)
            }
        }
        return true
    }

    func presenceEvents(
        _ announced: [(type: String, stay: StayRecord, at: Date)],
        username: String,
        displayName: String,
        on db: any SQLDatabase
    )
        async throws -> [FeedMessage]
    {
        guard !announced.isEmpty else { return [] }
        let entries = Dictionary(
            announced.compactMap { item in
                businesses.catalog.entry(item.stay.locationId).map { (item.stay.locationId, $0) }
            },
            uniquingKeysWith: { a, _ in a }
        )
        let staff = try await businesses.store.memberIDs(
            businesses: Array(Set(entries.values.map(\.location.businessId))),
            on: db
        )
        var messages: [FeedMessage] = []
        for item in announced {
            guard let entry = entries[item.stay.locationId] else { continue }
            let business = entry.location.businessId
            let change = PresenceChange(
                businessId: business,
                locationId: entry.location.id,
                username: username,
                displayName: displayName
            )
            let audience = (staff[business] ?? []).filter { $0 != item.stay.userId }
            if !audience.isEmpty {
                messages.append(
                    .event(
                        audience: audience,
                        event: PlazaEvent(type: item.type, occurredAt: item.at, data: try JSONValue(encoding: change))
                    )
                )
            }
            if item.type == PlazaEventType.presenceEntered {
                let nearby = NearbyBusiness(
                    businessId: business,
                    locationId: entry.location.id,
                    name: entry.businessName,
                    category: entry.category
                )
                messages.append(
                    .event(
                        audience: [item.stay.userId],
                        event: PlazaEvent(
                            type: PlazaEventType.nearbyBusiness,
                            occurredAt: item.at,
                            data: try JSONValue(encoding: nearby)
                        )
                    )
                )
            }
        }
        return messages
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
        guard start < end else { throw PlazaError.validation(field: "from", "Must be before `to`.") }
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

    // MARK: Presence

    /// The customers in the business's locations now (owners and staff only). Never coordinates.
    func presence(_ identity: Identity, business: UUID, now: Date = Date()) async throws -> [PresentCustomer] {
        try await prepare()
        try businesses.requireStaff(identity, of: business)
        let freshSince = now.addingTimeInterval(-PlacesRules.presenceFreshness)
        var present: [PresentCustomer] = []
        for location in businesses.catalog.locations(of: business) {
            let reach = Double(location.radiusMeters) + StayTracker.margin(radius: location.radiusMeters)
            present += index.staying(
                at: location.id,
                within: reach,
                of: location.coordinate,
                freshSince: freshSince,
                excluding: identity.user.id
            )
        }
        // Longest-staying first (usernames are short ASCII strings: compared by bytes, inline).
        return present.sorted { $0.since != $1.since ? $0.since < $1.since : $0.username < $1.username }
    }

    /// Ends stays whose user went quiet (run every few seconds by the background service).
    func sweepQuietStays(now: Date = Date()) async throws {
        try await prepare()
        let quiet = try await stays.stale(
            before: now.addingTimeInterval(-PlacesRules.presenceFreshness),
            limit: 500,
            on: database.sql
        )
        for stay in quiet {
            try await events.transaction { db in
                guard try await closeStay(stay, at: stay.lastSeenAt, on: db) else { return ((), []) }
                guard let user = try await accounts.user(id: stay.userId, on: db) else { return ((), []) }
                let messages = try await presenceEvents(
                    [(PlazaEventType.presenceExited, stay, stay.lastSeenAt)],
                    username: user.username,
                    displayName: user.displayName,
                    on: db
                )
                return ((), messages)
            }
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
