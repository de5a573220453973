import Foundation
import PlazaCore
import Synchronization

/// The running campaigns with automatic delivery, by the places they reach: every process keeps one, so that a
/// location update finds the campaigns around it without a query (none around: no database work at all). It is
/// rebuilt after campaigns or businesses' locations change (`campaignsChanged`, `catalogChanged`).
final class CampaignIndex: Sendable {
    /// A campaign near one of its locations.
    struct Spot: Hashable, Sendable {
        var campaign: UUID
        var location: UUID
    }

    struct Reach: Sendable {
        var businessId: UUID
        var businessName: String
        var radius: Double
        var content: CampaignContent
    }

    /// A campaign a position falls within, and how far from its location.
    struct Candidate: Sendable {
        var campaign: UUID
        var reach: Reach
        var distance: Double
    }

    private struct State: Sendable {
        var grid = GeoGrid<Spot, Reach>(cellDegrees: 0.01)
        var largestRadius = 0.0
        var generation = 0
        var loaded = false
    }

    private let state = Mutex(State())

    var isLoaded: Bool { state.withLock { $0.loaded } }

    /// Marks the index stale; the next match rebuilds it.
    func invalidate() {
        state.withLock {
            $0.loaded = false
            $0.generation += 1
        }
    }

    var generation: Int { state.withLock { $0.generation } }

    /// Replaces the whole index, unless it was invalidated since `generation` was read (then the next match loads again).
    func load(_ spots: [(Spot, Coordinate, Reach)], generation: Int) {
        var grid = GeoGrid<Spot, Reach>(cellDegrees: 0.01)
        var largest = 0.0
        for (spot, coordinate, reach) in spots {
            grid.upsert(spot, at: coordinate, value: reach)
            largest = max(largest, reach.radius)
        }
        state.withLock {
            guard $0.generation == generation else { return }
            ($0.grid, $0.largestRadius, $0.loaded) = (grid, largest, true)
        }
    }

    /// The campaigns whose radius `coordinate` is within, each once (at its nearest location), nearest first.
    func candidates(near coordinate: Coordinate) -> [Candidate] {
        state.withLock { state in
            guard state.largestRadius > 0 else { return [] }
            var nearest: [UUID: Candidate] = [:]
            state.grid.forEach(within: state.largestRadius, of: coordinate) { spot, entry, distance in
                guard distance <= entry.value.radius else { return }
                if let known = nearest[spot.campaign], known.distance <= distance { return }
                nearest[spot.campaign] = Candidate(campaign: spot.campaign, reach: entry.value, distance: distance)
            }
            return nearest.values.sorted { $0.distance < $1.distance }
        }
    }
}
