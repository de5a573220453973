import Foundation
import PlazaCore
import SQLKit

/// Stays: a tracker's changes written and announced, visits counted, who is present now, and quiet stays ended.
extension PlacesService {
    /// One person's tracker, with the time its changes are measured against.
    struct TrackedStays: Sendable {
        var tracker: StayTracker
        var user: UserRecord
        var now: Date
    }

    /// Writes what each tracker decided and returns the events each causes, in the trackers' order: presence for the
    /// business's staff, `nearby.business` for the user. Only live changes are announced, not those of an old batch.
    /// The open stays' sightings move in one statement for everyone.
    func applyStays(_ tracked: [TrackedStays], on db: any SQLDatabase) async throws -> [[FeedMessage]] {
        var messages: [[FeedMessage]] = []
        for item in tracked {
            var announced: [(type: String, stay: StayRecord, at: Date)] = []
            let liveSince = item.now.addingTimeInterval(-2 * PlacesRules.presenceFreshness)
            for change in item.tracker.changes {
                switch change {
                case .entered(let stay):
                    try await stays.insert(stay, on: db)
                    if stay.enteredAt >= item.now.addingTimeInterval(-PlacesRules.presenceFreshness) {
                        announced.append((PlazaEventType.presenceEntered, stay, stay.enteredAt))
                    }
                case .exited(let stay, let time):
                    guard try await closeStay(stay, at: time, on: db) else { continue }
                    if stay.lastSeenAt >= liveSince { announced.append((PlazaEventType.presenceExited, stay, time)) }
                }
            }
            messages.append(
                try await presenceEvents(
                    announced,
                    username: item.user.username,
                    displayName: item.user.displayName,
                    on: db
                )
            )
        }
        try await stays.touch(tracked.flatMap(\.tracker.open.values), on: db)
        return messages
    }

    /// Ends every open stay of `user` at `time` (sharing off, history deleted, account erased, a new zone).
    func endStays(of user: UserRecord, at time: Date, on db: any SQLDatabase) async throws -> [FeedMessage] {
        var tracker = StayTracker(
            user: user.id,
            open: try await stays.openStays(user: user.id, on: db),
            catalog: businesses.catalog
        )
        tracker.endAll(at: time)
        return try await applyStays([TrackedStays(tracker: tracker, user: user, now: time)], on: db)[0]
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

    // MARK: Presence

    /// The customers in the business's locations now (owners and staff only). Never coordinates.
    func presence(_ identity: Identity, business: UUID, now: Date = Date()) async throws -> [PresentCustomer] {
        try await prepare()
        try await businesses.requireStaff(identity, of: business)
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
}
