import Foundation
import PlazaCore
import SQLKit

extension PlacesService {
    static let maximumZones = 20

    func zones(_ identity: Identity) async throws -> [PrivateZone] {
        try await locations.zones(user: identity.user.id, on: database.sql).map(\.dto)
    }

    func createZone(_ identity: Identity, _ request: PrivateZoneRequest, now: Date = Date()) async throws -> PrivateZone
    {
        let errors = PlacesRules.zoneProblems(request)
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        let center = Coordinate(latitude: request.latitude, longitude: request.longitude)
        let zone = ZoneRecord(
            id: UUID(),
            userId: identity.user.id,
            name: request.name.trimmingCharacters(in: .whitespacesAndNewlines),
            center: center,
            radiusMeters: request.radiusMeters,
            decoy: Self.decoy(around: center),
            createdAt: now
        )
        try await prepare()
        let user = identity.user
        try await events.transaction { db in
            guard try await locations.zones(user: user.id, on: db).count < Self.maximumZones else {
                throw PlazaError.conflict(
                    field: nil,
                    say(
                        "You have {count} private zones already; delete one first.",
                        ["count": String(Self.maximumZones)]
                    )
                )
            }
            try await locations.insertZone(zone, on: db)
            return ((), try await hideIfInside(zone, user: user, now: now, on: db))
        }
        return zone.dto
    }

    /// Moving a zone picks a new decoy: the old one would point back towards the old centre.
    func updateZone(
        _ identity: Identity,
        id: UUID,
        _ request: PrivateZoneRequest,
        now: Date = Date()
    ) async throws -> PrivateZone {
        let errors = PlacesRules.zoneProblems(request)
        guard errors.isEmpty else { throw PlazaError.validation(errors) }
        try await prepare()
        let user = identity.user
        return try await events.transaction { db in
            guard var zone = try await locations.zones(user: user.id, on: db).first(where: { $0.id == id }) else {
                throw PlazaError.notFound("private zone")
            }
            let center = Coordinate(latitude: request.latitude, longitude: request.longitude)
            if center != zone.center { zone.decoy = Self.decoy(around: center) }
            zone.name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
            zone.center = center
            zone.radiusMeters = request.radiusMeters
            try await locations.updateZone(zone, on: db)
            return (zone.dto, try await hideIfInside(zone, user: user, now: now, on: db))
        }
    }

    /// The newest position stood for this zone: it is dropped until the next point, rather than revealing the centre.
    func deleteZone(_ identity: Identity, id: UUID) async throws {
        let user = identity.user
        try await events.transaction { db in
            let live = try await locations.livePosition(user: user.id, on: db)
            guard try await locations.deleteZone(id: id, user: user.id, on: db) else {
                throw PlazaError.notFound("private zone")
            }
            guard live?.zone == id else { return ((), []) }
            try await db.delete(from: "live_positions").where("user_id", .equal, user.id).run()
            return ((), [.forget(user.id)])
        }
    }

    /// When the newest position falls inside a new or moved zone, it becomes the zone at once: stays end
    /// and the map shows the decoy, without waiting for the next point.
    private func hideIfInside(
        _ zone: ZoneRecord,
        user: UserRecord,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        guard let live = try await locations.livePosition(user: user.id, on: db), live.zone == nil,
            zone.contains(live.coordinate)
        else { return [] }
        let point = LocationPoint(
            latitude: zone.center.latitude,
            longitude: zone.center.longitude,
            accuracy: nil,
            recordedAt: live.recordedAt
        )
        try await locations.setLivePositions([PlacedPoint(user: user.id, point: point, zone: zone)], on: db)
        var messages = try await endStays(of: user, at: now, on: db)
        let sharing = try await locations.sharing(user: user.id, on: db)
        if sharing.level != .off {
            messages.append(
                .position(
                    try await livePosition(
                        user: user,
                        zone.center,
                        at: live.recordedAt,
                        zone: zone.id,
                        sharing: sharing,
                        stays: [],
                        on: db
                    )
                )
            )
        }
        return messages
    }

    /// A point at a uniformly random bearing, 0.5 to 2 km from `center`.
    static func decoy(around center: Coordinate) -> Coordinate {
        center.destination(distance: Double.random(in: 500...2_000), bearing: Double.random(in: 0..<(2 * .pi)))
    }
}
