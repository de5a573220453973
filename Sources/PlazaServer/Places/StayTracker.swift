import Foundation
import PlazaCore

/// Follows one user's stays through a run of new points, in time order: a stay begins at the first point
/// inside a location's radius and ends at the first point beyond the radius plus a margin (hysteresis, so
/// GPS jitter at the edge does not flap), at a point inside a private zone, or at the last point before
/// a silence longer than the presence freshness. Pure: the service applies what it decides.
struct StayTracker {
    struct Step: Sendable {
        var coordinate: Coordinate
        var accuracy: Double?
        var time: Date
        var inZone: Bool
    }

    enum Change: Sendable, Equatable {
        case entered(StayRecord)
        case exited(StayRecord, at: Date)
    }

    let user: UUID
    let catalog: LocationCatalog
    private(set) var open: [UUID: StayRecord]
    private(set) var changes: [Change] = []

    init(user: UUID, open: [StayRecord], catalog: LocationCatalog) {
        self.user = user
        self.catalog = catalog
        self.open = Dictionary(open.map { ($0.locationId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The margin beyond a location's radius before a stay ends.
    static func margin(radius: Int) -> Double { max(20, Double(radius) / 4) }

    /// Open stays whose last point is older than now minus the freshness have ended.
    mutating func endQuiet(now: Date) {
        for (location, stay) in open where now.timeIntervalSince(stay.lastSeenAt) > PlacesRules.presenceFreshness {
            close(location, stay, at: stay.lastSeenAt)
        }
    }

    mutating func endAll(at time: Date) {
        for (location, stay) in open { close(location, stay, at: time) }
    }

    mutating func advance(_ step: Step) {
        endQuiet(now: step.time)
        if step.inZone {
            endAll(at: step.time)
            return
        }
        let inReach = catalog.containing(step.coordinate, margin: Self.margin(radius:))
        let distances = Dictionary(
            inReach.map { ($0.entry.location.id, ($0.distance, $0.entry.location.radiusMeters)) },
            uniquingKeysWith: { a, _ in a }
        )
        for (location, var stay) in open {
            if distances[location] == nil {
                close(location, stay, at: step.time)
            } else {
                stay.lastSeenAt = step.time
                open[location] = stay
            }
        }
        for (location, (distance, radius)) in distances where open[location] == nil && distance <= Double(radius) {
            // A fix vaguer than the shop itself is not evidence of being inside it.
            if let accuracy = step.accuracy, accuracy > max(100, Double(radius)) { continue }
            let stay = StayRecord(
                id: UUID(),
                userId: user,
                locationId: location,
                enteredAt: step.time,
                lastSeenAt: step.time
            )
            open[location] = stay
            changes.append(.entered(stay))
        }
    }

    private mutating func close(_ location: UUID, _ stay: StayRecord, at time: Date) {
        open[location] = nil
        changes.append(.exited(stay, at: time))
    }
}
