import Foundation
import PlazaCore

/// A stay at a business location that has not ended, as the live index keeps it.
struct OpenStay: Codable, Sendable, Hashable {
    var locationId: UUID
    var enteredAt: Date
}

/// A sharing user's newest position as the live index keeps it, with who they are and where they stay,
/// so that a presence list needs no database read.
struct LivePosition: Codable, Sendable, Hashable {
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
}

/// What a circle query needs of a position: plain values only, so that scanning thousands costs no
/// reference counting. The rest of a `LivePosition` waits in a side table for the few that match.
private struct Spot: Sendable {
    /// Where the rest of the position waits in `State.details`: an array index, not a hash lookup.
    var slot: Int32
    var recordedAt: Date
    /// Sharing, and not inside one of their private zones.
    var countable: Bool
    var hasStays: Bool
}

/// Every sharing user's live position in memory, in two grids: true positions (presence, never shown)
/// and published dots (the map). Rebuilt from `live_positions` at start, kept current by the feed.
package final class LiveIndex: Sendable {
    private struct State {
        var positions = GeoGrid<UUID, Spot>(cellDegrees: 0.002)
        var details: [LivePosition?] = []
        var slotOf: [UUID: Int32] = [:]
        var freeSlots: [Int32] = []
        var dots = GeoGrid<UUID, Void>(cellDegrees: 0.01)
        var loaded = false
        /// While a rebuild reads the database, what the feed says meanwhile, replayed over the rebuilt state.
        var pending: [FeedMessage]?
    }

    private let state = ReadWriteLock(State())

    var count: Int { state.read { $0.positions.count } }

    /// False until rebuilt from the database, and again after the feed may have lost messages.
    var isLoaded: Bool { state.read { $0.loaded } }

    package func invalidate() {
        state.write { $0.loaded = false }
    }

    func position(of user: UUID) -> LivePosition? {
        state.read { state in state.slotOf[user].flatMap { state.details[Int($0)] } }
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
        if let slot = state.slotOf[position.userId], let current = state.details[Int(slot)],
            current.recordedAt > position.recordedAt
        {
            return
        }
        put(position, into: &state)
    }

    private static func forget(_ user: UUID, in state: inout State) {
        state.positions.remove(user)
        state.dots.remove(user)
        guard let slot = state.slotOf.removeValue(forKey: user) else { return }
        state.details[Int(slot)] = nil
        state.freeSlots.append(slot)
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
            let stale = state.positions.allKeys { $0.value.recordedAt < cutoff }
            for key in stale { Self.forget(key, in: &state) }
            return stale.count
        }
    }

    /// Replaces everything (start-up, or after the feed lost messages).
    func replaceAll(with positions: [LivePosition]) {
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
            state.positions.forEach(within: radius, of: center) { key, entry, _ in
                if entry.value.countable && entry.value.recordedAt >= freshSince { found.append(key) }
            }
            return found
        }
    }

    /// How many `present` would list, without listing them.
    func presentCount(within radius: Double, of center: Coordinate, freshSince: Date) -> Int {
        state.read { state in
            var count = 0
            state.positions.forEach(within: radius, of: center) { _, entry, _ in
                if entry.value.countable && entry.value.recordedAt >= freshSince { count += 1 }
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
            state.positions.forEach(within: radius, of: center) { key, entry, _ in
                let spot = entry.value
                guard spot.countable, spot.hasStays, spot.recordedAt >= freshSince, key != excluded,
                    let position = state.details[Int(spot.slot)],
                    let stay = position.stays.first(where: { $0.locationId == location })
                else { return }
                found.append(
                    PresentCustomer(
                        username: position.username,
                        displayName: position.displayName,
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
                guard result.count < limit, let position = state.positions.entry(for: found.key)?.value,
                    position.recordedAt >= freshSince
                else {
                    continue
                }
                result.append(found.entry.coordinate)
            }
            return result
        }
    }

    private static func put(_ position: LivePosition, into state: inout State) {
        let slot: Int32
        if let known = state.slotOf[position.userId] {
            slot = known
        } else if let free = state.freeSlots.popLast() {
            slot = free
        } else {
            slot = Int32(state.details.count)
            state.details.append(nil)
        }
        state.slotOf[position.userId] = slot
        state.details[Int(slot)] = position
        let spot = Spot(
            slot: slot,
            recordedAt: position.recordedAt,
            countable: position.level != .off && position.zoneId == nil,
            hasStays: !position.stays.isEmpty
        )
        state.positions.upsert(position.userId, at: position.coordinate, value: spot)
        if let published = position.published, position.level == .map {
            state.dots.upsert(position.userId, at: published, value: ())
        } else {
            state.dots.remove(position.userId)
        }
    }
}
