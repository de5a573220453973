import Foundation
import PlazaCore

/// A stay at a business location that has not ended, as the live index keeps it.
package struct OpenStay: Codable, Sendable, Hashable {
    var locationId: UUID
    var enteredAt: Date

    package init(locationId: UUID, enteredAt: Date) {
        self.locationId = locationId
        self.enteredAt = enteredAt
    }
}

/// A sharing user's newest position as the live index keeps it, with who they are and where they stay,
/// so that a presence list needs no database read.
package struct LivePosition: Codable, Sendable, Hashable {
    var userId: UUID
    var username: String
    var displayName: String
    var latitude: Double
    var longitude: Double
    var recordedAt: Date
    var level: SharingLevel
    /// Set while the user is inside one of their private zones (the coordinate is then the zone's centre).
    var zoneId: UUID?
    /// The dot the public map shows, when the user shares with the map and is not hidden by a zone.
    var published: Coordinate?
    /// The user's open stays (none while inside a private zone).
    var stays: [OpenStay] = []

    var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    package init(
        userId: UUID,
        username: String,
        displayName: String,
        latitude: Double,
        longitude: Double,
        recordedAt: Date,
        level: SharingLevel,
        zoneId: UUID?,
        published: Coordinate?,
        stays: [OpenStay] = []
    ) {
        self.userId = userId
        self.username = username
        self.displayName = displayName
        self.latitude = latitude
        self.longitude = longitude
        self.recordedAt = recordedAt
        self.level = level
        self.zoneId = zoneId
        self.published = published
        self.stays = stays
    }
}

/// Where and when the index last placed someone (a private zone's centre while they are inside it).
package struct LiveFix: Sendable, Equatable {
    package var latitude: Double
    package var longitude: Double
    package var recordedAt: Date
}

/// Every sharing user's live position in memory: true positions (presence, never shown; `LivePeople`)
/// and published dots (the map). Rebuilt from `live_positions` at start, kept current by the feed.
package final class LiveIndex: Sendable {
    private struct State {
        var people = LivePeople()
        var dots = GeoGrid<UUID, Void>(cellDegrees: 0.01)
        var loaded = false
        /// While a rebuild reads the database, what the feed says meanwhile, replayed over the rebuilt state.
        var pending: [FeedMessage]?
    }

    private let state = ReadWriteLock(State())

    package init() {}

    package var count: Int { state.read { $0.people.count } }

    /// False until rebuilt from the database, and again after the feed may have lost messages.
    var isLoaded: Bool { state.read { $0.loaded } }

    package func invalidate() {
        state.write { $0.loaded = false }
    }

    package func position(of user: UUID) -> LiveFix? {
        state.read { state in
            state.people.slot(of: user).map { slot in
                let person = state.people.person(slot)
                return LiveFix(latitude: person.latitude, longitude: person.longitude, recordedAt: person.recordedAt)
            }
        }
    }

    /// Stores `position` unless the index already holds a newer one for that user.
    func apply(_ position: LivePosition) {
        state.write { state in
            state.pending?.append(.position(position))
            Self.apply(position, to: &state)
        }
    }

    func forget(_ user: UUID) {
        state.write { state in
            state.pending?.append(.forget(user))
            Self.forget(user, in: &state)
        }
    }

    private static func apply(_ position: LivePosition, to state: inout State) {
        if let slot = state.people.slot(of: position.userId), state.people.person(slot).recordedAt > position.recordedAt
        {
            return
        }
        put(position, into: &state)
    }

    private static func forget(_ user: UUID, in state: inout State) {
        state.people.remove(user)
        state.dots.remove(user)
    }

    /// Call before reading the database for `replaceAll`: changes that arrive meanwhile are kept for it.
    func beginRebuild() {
        state.write { state in
            if state.pending == nil { state.pending = [] }
        }
    }

    /// Drops people whose newest position is older than `cutoff`: they count for nothing any more, and a
    /// process that runs for months must not keep everyone who ever shared.
    @discardableResult
    func prune(olderThan cutoff: Date) -> Int {
        state.write { state in
            let cutoff = cutoff.timeIntervalSinceReferenceDate
            let stale = state.people.users { $0.time < cutoff }
            for key in stale { Self.forget(key, in: &state) }
            return stale.count
        }
    }

    /// Replaces everything (start-up, or after the feed lost messages).
    package func replaceAll(with positions: [LivePosition]) {
        state.write { state in
            let pending = state.pending ?? []
            state = State()
            for position in positions { Self.put(position, into: &state) }
            for message in pending {
                switch message {
                case .position(let position): Self.apply(position, to: &state)
                case .forget(let user): Self.forget(user, in: &state)
                default: break
                }
            }
            state.loaded = true
        }
    }

    /// Users who may count as present: sharing, outside their zones, fresh, within `radius` of `center`.
    package func present(within radius: Double, of center: Coordinate, freshSince: Date) -> [UUID] {
        state.read { state in
            var found: [UUID] = []
            let fresh = freshSince.timeIntervalSinceReferenceDate
            state.people.forEach(within: radius, of: center) { person in
                if person.isCountable && person.time >= fresh { found.append(state.people.user(person.slot)) }
            }
            return found
        }
    }

    /// How many `present` would list, without listing them.
    package func presentCount(within radius: Double, of center: Coordinate, freshSince: Date) -> Int {
        state.read { state in
            var count = 0
            let fresh = freshSince.timeIntervalSinceReferenceDate
            state.people.forEach(within: radius, of: center) { person in
                if person.isCountable && person.time >= fresh { count += 1 }
            }
            return count
        }
    }

    /// Those of them with an open stay at `location`, other than `excluded`, as a presence list shows them.
    func staying(
        at location: UUID,
        within radius: Double,
        of center: Coordinate,
        freshSince: Date,
        excluding excluded: UUID
    ) -> [PresentCustomer] {
        state.read { state in
            var found: [PresentCustomer] = []
            state.people.forEach(within: radius, of: center) { person in
                guard person.isCountable, person.isStaying, person.recordedAt >= freshSince,
                    let staying = state.people.staying(person.slot), state.people.user(person.slot) != excluded,
                    let stay = staying.stays.first(where: { $0.locationId == location })
                else { return }
                found.append(
                    PresentCustomer(
                        username: staying.username,
                        displayName: staying.displayName,
                        locationId: location,
                        since: stay.enteredAt
                    )
                )
            }
            return found
        }
    }

    /// Published dots inside the box, fresher than `freshSince`.
    func dots(south: Double, west: Double, north: Double, east: Double, freshSince: Date, limit: Int) -> [Coordinate] {
        state.read { state in
            var result: [Coordinate] = []
            for found in state.dots.inside(south: south, west: west, north: north, east: east) {
                guard result.count < limit, let slot = state.people.slot(of: found.key),
                    state.people.person(slot).recordedAt >= freshSince
                else {
                    continue
                }
                result.append(found.entry.coordinate)
            }
            return result
        }
    }

    private static func put(_ position: LivePosition, into state: inout State) {
        state.people.put(position)
        if let published = position.published, position.level == .map {
            state.dots.upsert(position.userId, at: published, value: ())
        } else {
            state.dots.remove(position.userId)
        }
    }
}
