import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

/// The places rules: sharing, presence, crowds and line waits, over the businesses' catalog (`BusinessesService`).
/// Routes and pages call this; SQL is in the stores.
package struct PlacesService: Sendable {
    let database: PlazaDatabase
    let configuration: PlacesConfiguration
    /// Where businesses are and who works for them: presence is "who is in which shop".
    let businesses: BusinessesService
    package let index: LiveIndex
    /// Where places publish what changed and hear it back (the live index and catalog follow it).
    let events: EventBus
    let obfuscator: MapObfuscator
    /// Keys the marks that tell a popular-times cell's people apart (see `M0006_CrowdPeople`).
    let secrets: Secrets
    let logger: Logger
    /// Address search (`PLAZA_GEOCODER_URL`); nil: places are placed on the map or by coordinates.
    let geocoder: (any Geocoder)?
    /// The operator's MBTiles file, when `PLAZA_MAP_TILES` names one.
    let tiles: MapTileStore?

    let locations = LocationStore()
    /// One per process: uploads wait here for their batch.
    let uploads: UploadBatcher
    let stays = StayStore()
    let accounts = AccountStore()

    /// Per-person limits of what costs a third party (address searches).
    let limiter: RateLimiter
    /// Offers' subscriptions, for lists and maps of a customer's subscribed businesses only.
    let subscriptions: (any SubscribedBusinesses)?

    init(
        database: PlazaDatabase,
        configuration: PlacesConfiguration,
        businesses: BusinessesService,
        events: EventBus,
        limiter: RateLimiter,
        secretKey: String,
        logger: Logger,
        subscriptions: (any SubscribedBusinesses)? = nil
    ) {
        self.businesses = businesses
        self.subscriptions = subscriptions
        geocoder = configuration.geocoderURL.map { NominatimGeocoder(base: $0) }
        tiles = configuration.mapTilesFile.map { MapTileStore(path: $0, logger: logger) }
        self.limiter = limiter
        self.database = database
        uploads = UploadBatcher(lanes: database.engine == .sqlite ? 1 : 4)
        self.configuration = configuration
        self.events = events
        self.logger = logger
        index = LiveIndex()
        obfuscator = MapObfuscator(epsilon: configuration.mapEpsilon, secretKey: secretKey)
        secrets = Secrets(secretKey: secretKey)
        let index = index
        events.subscribe({ message in Self.apply(message, index: index) }, resync: { index.invalidate() })
    }

    private static func apply(_ message: FeedMessage, index: LiveIndex) {
        switch message {
        case .position(let position): index.apply(position)
        case .forget(let user): index.forget(user)
        case .catalogChanged, .reviewed, .loyaltyOffered, .event, .alert, .arrival, .review, .campaignsChanged,
            .topUpSettled, .emailVerified, .inboxNotice:
            break
        }
    }

    /// Loads the catalog and the live index when they are stale (start-up, or after the feed lost messages).
    package func prepare(now: Date = Date()) async throws {
        try await businesses.prepare()
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
                    published =
                        row.sharing.zoneDisplay == .hidden
                        ? nil : try await locations.decoy(zone: zone, on: database.sql)
                } else {
                    published = obfuscator.publish(row.coordinate, user: row.user, at: row.recordedAt)
                }
            }
            positions.append(
                LivePosition(
                    userId: row.user,
                    username: row.username,
                    displayName: row.displayName,
                    latitude: row.coordinate.latitude,
                    longitude: row.coordinate.longitude,
                    recordedAt: row.recordedAt,
                    level: row.sharing.level,
                    zoneId: row.zone,
                    published: published,
                    stays: row.zone != nil
                        ? []
                        : (open[row.user] ?? []).map { OpenStay(locationId: $0.locationId, enteredAt: $0.enteredAt) }
                )
            )
        }
        index.replaceAll(with: positions)
    }

    package static func hourStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
    }
}

extension PlazaError {
    static let sharingOff = PlazaError(
        .conflict,
        .locationSharingOff,
        phrase("Location sharing is off."),
        detail: phrase("Turn sharing on (PUT /v1/me/location-sharing) before sending points.")
    )
}
