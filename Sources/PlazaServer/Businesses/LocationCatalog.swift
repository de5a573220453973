import Foundation
import PlazaCore
import SQLKit

/// A business location with what a search result or an event shows of its business.
struct CatalogEntry: Sendable {
    var location: BusinessLocation
    var businessName: String
    var category: BusinessCategory
    var hasLoyalty = false
}

/// Every business location in memory, in a grid: the "which shops is this point in" question of every
/// uploaded point, and nearby search; and who works for each business (presence lists ask it). Loaded from the database on first use and again after any process
/// reports a change (`FeedMessage.catalogChanged`); the database stays the source of truth.
final class LocationCatalog: Sendable {
    private struct State {
        var grid = GeoGrid<UUID, CatalogEntry>(cellDegrees: 0.01)
        var loaded = false
        var first: CatalogEntry?
        var byBusiness: [UUID: [BusinessLocation]] = [:]
        /// Owners and staff by business: every business with a member is here, with or without locations.
        var members: [UUID: [UUID: BusinessRole]] = [:]
        /// Counts invalidations: a load that began before one must not mark the catalog fresh.
        var generation = 0
    }

    private let state = ReadWriteLock(State())
    /// The largest location radius, so a grid query by point finds every location whose circle holds it.
    static let maximumRadius = Double(BusinessRules.locationRadius.upperBound)

    /// Marks the catalog stale; the next use reloads it.
    func invalidate() {
        state.write { state in
            state.loaded = false
            state.generation += 1
        }
    }

    /// Loads the catalog when stale.
    func prepare(using db: any SQLDatabase) async throws {
        let (loaded, generation) = state.read { ($0.loaded, $0.generation) }
        guard !loaded else { return }
        let locations = try await BusinessStore().allLocations(on: db)
        let businesses = try await BusinessStore().businesses(ids: Array(Set(locations.map(\.businessId))), on: db)
        var grid = GeoGrid<UUID, CatalogEntry>(cellDegrees: 0.01)
        var first: CatalogEntry?
        for location in locations {
            // Unlisted businesses (their merchant not approved yet) are nowhere: not nearby, and nobody is present there.
            guard let business = businesses[location.businessId], business.listed else { continue }
            let entry = CatalogEntry(
                location: location,
                businessName: business.name,
                category: business.category,
                hasLoyalty: business.hasLoyalty
            )
            grid.upsert(location.id, at: location.coordinate, value: entry)
            if first == nil { first = entry }
        }
        let byBusiness = Dictionary(grouping: locations, by: \.businessId)
        let members = try await BusinessStore().allMemberships(on: db)
        state.write { state in
            // Changed while loading: use what was read, but read again next time.
            let fresh = state.generation == generation
            state = State(
                grid: grid,
                loaded: fresh,
                first: first,
                byBusiness: byBusiness,
                members: members,
                generation: state.generation
            )
        }
    }

    /// The user's role in the business: nil with `known` when the business exists but the user is no member.
    func role(of user: UUID, in business: UUID) -> (known: Bool, role: BusinessRole?) {
        state.read { state in
            let members = state.members[business]
            return (members != nil || state.byBusiness[business] != nil, members?[user])
        }
    }

    /// The oldest location of all (the map's default centre).
    var first: CatalogEntry? {
        state.read { $0.first }
    }

    /// A business's locations, oldest first (call `prepare` before).
    func locations(of business: UUID) -> [BusinessLocation] {
        state.read { $0.byBusiness[business] ?? [] }
    }

    func entry(_ location: UUID) -> CatalogEntry? {
        state.read { $0.grid.entry(for: location)?.value }
    }

    /// Locations whose own radius holds `point` (`margin` metres wider, for leaving with hysteresis).
    func containing(
        _ point: Coordinate,
        margin: (Int) -> Double = { _ in 0 }
    ) -> [(entry: CatalogEntry, distance: Double)] {
        state.read { state in
            state.grid.within(Self.maximumRadius * 1.25 + 20, of: point).compactMap { found in
                let radius = Double(found.entry.value.location.radiusMeters)
                return found.distance <= radius + margin(found.entry.value.location.radiusMeters)
                    ? (found.entry.value, found.distance) : nil
            }
        }
    }

    /// Locations within `radius` of `point`, nearest first.
    func near(_ point: Coordinate, radius: Double) -> [(entry: CatalogEntry, distance: Double)] {
        state.read { state in
            state.grid.within(radius, of: point).map { ($0.entry.value, $0.distance) }.sorted {
                ($0.1, $0.0.location.id.uuidString) < ($1.1, $1.0.location.id.uuidString)
            }
        }
    }

    func inside(south: Double, west: Double, north: Double, east: Double) -> [CatalogEntry] {
        state.read { $0.grid.inside(south: south, west: west, north: north, east: east).map(\.entry.value) }
    }
}
