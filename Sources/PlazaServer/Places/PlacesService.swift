import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

/// The places rules: businesses, sharing, presence and crowds. Routes and pages call this; SQL is in the stores.
package struct PlacesService: Sendable {
    let database: PlazaDatabase
    let configuration: PlacesConfiguration
    let catalog: LocationCatalog
    package let index: LiveIndex
    /// Where places publish what changed and hear it back (the live index and catalog follow it).
    let events: EventBus
    let obfuscator: MapObfuscator
    /// Keys the marks that tell a popular-times cell's people apart (see `M0006_CrowdPeople`).
    let secrets: Secrets
    /// Other domains' reasons to keep a business (the wallet: money or charges still in it).
    let businessDeletionChecks = VetoSlot<UUID>()
    let logger: Logger
    /// Address search (`PLAZA_GEOCODER_URL`); nil: places are placed on the map or by coordinates.
    let geocoder: (any Geocoder)?
    /// The operator's MBTiles file, when `PLAZA_MAP_TILES` names one.
    let tiles: MapTileStore?

    let businesses = BusinessStore()
    let locations = LocationStore()
    let stays = StayStore()
    let accounts = AccountStore()

    /// Per-person limits of what costs a third party (address searches).
    let limiter: RateLimiter
    /// Offers' subscriptions, for lists and maps of a customer's subscribed businesses only.
    let subscriptions: (any SubscribedBusinesses)?

    init(
        database: PlazaDatabase, configuration: PlacesConfiguration, events: EventBus, limiter: RateLimiter, secretKey: String, logger: Logger,
        subscriptions: (any SubscribedBusinesses)? = nil
    ) {
        self.subscriptions = subscriptions
        geocoder = configuration.geocoderURL.map { NominatimGeocoder(base: $0) }
        tiles = configuration.mapTilesFile.map { MapTileStore(path: $0, logger: logger) }
        self.limiter = limiter
        self.database = database
        self.configuration = configuration
        self.events = events
        self.logger = logger
        catalog = LocationCatalog()
        index = LiveIndex()
        obfuscator = MapObfuscator(epsilon: configuration.mapEpsilon, secretKey: secretKey)
        secrets = Secrets(secretKey: secretKey)
        let (index, catalog) = (index, catalog)
        events.subscribe({ message in Self.apply(message, index: index, catalog: catalog) }, resync: { index.invalidate() })
    }

    private static func apply(_ message: FeedMessage, index: LiveIndex, catalog: LocationCatalog) {
        switch message {
        case .position(let position): index.apply(position)
        case .forget(let user): index.forget(user)
        case .catalogChanged: catalog.invalidate()
        case .reviewed(let decision) where decision.kind == .merchant: catalog.invalidate()
        case .loyaltyOffered: catalog.invalidate()
        case .event, .alert, .review, .reviewed, .campaignsChanged, .topUpSettled: break
        }
    }

    /// Loads the catalog and the live index when they are stale (start-up, or after the feed lost messages).
    package func prepare(now: Date = Date()) async throws {
        try await catalog.prepare(using: database.sql)
        guard !index.isLoaded else { return }
        index.beginRebuild()
        let since = now.addingTimeInterval(-3_600)
        let rows = try await locations.livePositions(since: since, on: database.sql)
        let open = Dictionary(grouping: try await stays.open(since: since, on: database.sql), by: \.userId)
        var positions: [LivePosition] = []
        for row in rows {
            var published: Coordinate?
            if row.sharing.level == .map {
                if let zone = row.zone {
                    published = row.sharing.zoneDisplay == .hidden ? nil : try await locations.decoy(zone: zone, on: database.sql)
                } else {
                    published = obfuscator.publish(row.coordinate, user: row.user, at: row.recordedAt)
                }
            }
            positions.append(
                LivePosition(
                    userId: row.user, username: row.username, displayName: row.displayName, latitude: row.coordinate.latitude,
                    longitude: row.coordinate.longitude, recordedAt: row.recordedAt, level: row.sharing.level, zoneId: row.zone, published: published,
                    stays: row.zone != nil ? [] : (open[row.user] ?? []).map { OpenStay(locationId: $0.locationId, enteredAt: $0.enteredAt) }))
        }
        index.replaceAll(with: positions)
    }

    /// The caller's role in the business: `owner`, `staff`, or nil for anyone else.
    func role(of identity: Identity, in business: UUID) async throws -> BusinessRole? {
        try await businesses.role(of: identity.user.id, in: business, on: database.sql)
    }

    /// The business's owners and staff may act for it; only owners change it.
    func requireMember(_ identity: Identity, of business: UUID, owner: Bool = false) async throws -> BusinessRecord {
        guard let (record, role) = try await businesses.business(id: business, roleOf: identity.user.id, on: database.sql) else {
            throw PlazaError.notFound("business")
        }
        guard let role, !owner || role == .owner else { throw PlazaError.forbidden }
        return record
    }

    /// The same check from the in-memory catalog (call `prepare` first), for the hot read paths.
    func requireStaff(_ identity: Identity, of business: UUID) throws {
        let (known, role) = catalog.role(of: identity.user.id, in: business)
        guard known else { throw PlazaError.notFound("business") }
        guard role != nil else { throw PlazaError.forbidden }
    }

    package static func hourStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
    }
}

extension PlazaError {
    static let sharingOff = PlazaError(
        .conflict, .locationSharingOff, "Location sharing is off.", detail: "Turn sharing on (PUT /v1/me/location-sharing) before sending points.")
}
