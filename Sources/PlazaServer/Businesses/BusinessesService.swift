import Foundation
import PlazaCore
import SQLKit

/// The businesses rules: businesses, their owners and staff, their locations and opening hours, and the in-memory
/// catalog of every location. Other domains ask here who may act for a business and where it is; Places (sharing,
/// presence, crowds) builds on the catalog. Routes and pages call this; SQL is in `BusinessStore`.
package struct BusinessesService: Sendable {
    let database: PlazaDatabase
    /// Where businesses publish what changed (`catalogChanged`) and hear it back.
    let events: EventBus
    let catalog: LocationCatalog
    let store = BusinessStore()
    let accounts = AccountStore()
    /// Other domains' reasons to keep a business (the wallet: money or charges still in it).
    let deletionChecks = VetoSlot<UUID>()

    /// The currencies this Plaza takes (`PLAZA_CURRENCIES`): items are priced in one of them.
    let currencies: [String]

    init(database: PlazaDatabase, events: EventBus, currencies: [String] = ["USD"]) {
        self.database = database
        self.events = events
        self.currencies = currencies
        let catalog = LocationCatalog()
        self.catalog = catalog
        events.subscribe({ message in Self.apply(message, catalog: catalog) }, resync: { catalog.invalidate() })
    }

    private static func apply(_ message: FeedMessage, catalog: LocationCatalog) {
        switch message {
        case .catalogChanged, .loyaltyOffered: catalog.invalidate()
        case .reviewed(let decision) where decision.kind == .merchant: catalog.invalidate()
        case .position, .forget, .event, .alert, .arrival, .review, .reviewed, .campaignsChanged, .topUpSettled,
            .emailVerified, .inboxNotice:
            break
        }
    }

    /// Loads the catalog when it is stale (start-up, a change, or after the feed lost messages).
    func prepare() async throws {
        try await catalog.prepare(using: database.sql)
    }

    /// Where a map without locations starts: the first listed location, or the demo town's square.
    func mapCenter() async throws -> Coordinate {
        try await prepare()
        return catalog.first?.location.coordinate ?? Coordinate(latitude: 48.1372, longitude: 11.5756)
    }

    /// The ids of the business's locations, from the database: for checks that must see a location added a moment
    /// ago by another process, before its `catalogChanged` arrives here.
    func locationIDs(of business: UUID) async throws -> Set<UUID> {
        Set(try await store.locations(businesses: [business], on: database.sql).map(\.id))
    }

    /// The caller's role in the business: `owner`, `staff`, or nil for anyone else.
    func role(of identity: Identity, in business: UUID) async throws -> BusinessRole? {
        try await store.role(of: identity.user.id, in: business, on: database.sql)
    }

    /// The business's owners and staff may act for it; only owners change it.
    func requireMember(_ identity: Identity, of business: UUID, owner: Bool = false) async throws -> BusinessRecord {
        guard let (record, role) = try await store.business(id: business, roleOf: identity.user.id, on: database.sql)
        else {
            throw PlazaError.notFound("business")
        }
        guard let role, !owner || role == .owner else { throw PlazaError.forbidden }
        return record
    }

    /// The same check from the in-memory catalog (call `prepare` first), for the hot read paths.
    func requireStaff(_ identity: Identity, of business: UUID) async throws {
        let (known, role) = catalog.role(of: identity.user.id, in: business)
        if role != nil { return }
        // Not (yet) in this process's catalog: another process may have made the business or the membership a moment
        // ago, before its `catalogChanged` arrived here. The database decides; a catalog it contradicts is reloaded.
        guard try await store.role(of: identity.user.id, in: business, on: database.sql) != nil else {
            throw known ? PlazaError.forbidden : PlazaError.notFound("business")
        }
        catalog.invalidate()
        try await catalog.prepare(using: database.sql)
    }
}
