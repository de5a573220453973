import Foundation
import PlazaCore
import SQLKit

/// A row of `private_zones`, with its decoy point (never shown to the owner's API, only to the map).
struct ZoneRecord: Sendable, Equatable {
    var id: UUID
    var userId: UUID
    var name: String
    var center: Coordinate
    var radiusMeters: Int
    var decoy: Coordinate
    var createdAt: Date

    var dto: PrivateZone {
        PrivateZone(
            id: id,
            name: name,
            latitude: center.latitude,
            longitude: center.longitude,
            radiusMeters: radiusMeters,
            createdAt: createdAt
        )
    }

    func contains(_ coordinate: Coordinate) -> Bool {
        PrivateZone.contains(center: center, radiusMeters: radiusMeters, coordinate)
    }
}

/// A recorded point as stored: whose, and the private zone it stands for (then it is the zone's centre).
struct PlacedPoint: Sendable {
    var user: UUID
    var point: LocationPoint
    var zone: ZoneRecord?
}

/// All SQL about a user's sharing settings, private zones, recorded points and newest position.
struct LocationStore: Sendable {
    // MARK: Settings

    func sharing(user: UUID, on db: any SQLDatabase) async throws -> LocationSharing {
        guard
            let row = try await db.select().columns("level", "zone_display").from("location_settings").where(
                "user_id",
                .equal,
                user
            ).first()
        else { return LocationSharing(level: .off, zoneDisplay: .decoy) }
        return try Self.sharing(row: row)
    }

    static func sharing(row: any SQLRow) throws -> LocationSharing {
        LocationSharing(
            level: SharingLevel(rawValue: try row.decode(column: "level", as: String.self)) ?? .off,
            zoneDisplay: ZoneDisplay(rawValue: try row.decode(column: "zone_display", as: String.self)) ?? .decoy
        )
    }

    func setSharing(user: UUID, _ sharing: LocationSharing, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "location_settings").columns("user_id", "level", "zone_display", "updated_at")
            .values(
                SQLBind(user),
                SQLBind(sharing.level.rawValue),
                SQLBind((sharing.zoneDisplay ?? .decoy).rawValue),
                SQLBind(now)
            )
            .onConflict(with: ["user_id"]) {
                $0.set(excludedValueOf: "level").set(excludedValueOf: "zone_display").set(excludedValueOf: "updated_at")
            }
            .run()
    }

    // MARK: Zones

    private static let zoneColumns = [
        "id", "user_id", "name", "latitude", "longitude", "radius_meters", "decoy_latitude", "decoy_longitude",
        "created_at",
    ]

    func zones(user: UUID, on db: any SQLDatabase) async throws -> [ZoneRecord] {
        try await db.select().columns(Self.zoneColumns.map { SQLIdentifier($0) }).from("private_zones").where(
            "user_id",
            .equal,
            user
        )
        .orderBy("created_at").orderBy("id").all().map(Self.zone(row:))
    }

    func insertZone(_ zone: ZoneRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "private_zones").columns(Self.zoneColumns)
            .values(
                SQLBind(zone.id),
                SQLBind(zone.userId),
                SQLBind(zone.name),
                SQLBind(zone.center.latitude),
                SQLBind(zone.center.longitude),
                SQLBind(zone.radiusMeters),
                SQLBind(zone.decoy.latitude),
                SQLBind(zone.decoy.longitude),
                SQLBind(zone.createdAt)
            ).run()
    }

    func updateZone(_ zone: ZoneRecord, on db: any SQLDatabase) async throws {
        try await db.update("private_zones").set("name", to: zone.name).set("latitude", to: zone.center.latitude)
            .set("longitude", to: zone.center.longitude).set("radius_meters", to: zone.radiusMeters)
            .set("decoy_latitude", to: zone.decoy.latitude).set("decoy_longitude", to: zone.decoy.longitude)
            .where("id", .equal, zone.id).where("user_id", .equal, zone.userId).run()
    }

    func deleteZone(id: UUID, user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "private_zones").where("id", .equal, id).where("user_id", .equal, user).returning(
            "id"
        ).first() != nil
    }

    static func zone(row: any SQLRow) throws -> ZoneRecord {
        ZoneRecord(
            id: try row.decode(column: "id", as: UUID.self),
            userId: try row.decode(column: "user_id", as: UUID.self),
            name: try row.decode(column: "name", as: String.self),
            center: Coordinate(
                latitude: try row.decode(column: "latitude", as: Double.self),
                longitude: try row.decode(column: "longitude", as: Double.self)
            ),
            radiusMeters: try row.decode(column: "radius_meters", as: Int.self),
            decoy: Coordinate(
                latitude: try row.decode(column: "decoy_latitude", as: Double.self),
                longitude: try row.decode(column: "decoy_longitude", as: Double.self)
            ),
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }

    // MARK: Points

    /// Stores the points not sent before; returns how many were new, per person.
    func insertPoints(_ points: [PlacedPoint], on db: any SQLDatabase) async throws -> [UUID: Int] {
        var inserted: [UUID: Int] = [:]
        // Chunks keep the statement's bind count far below both engines' limits.
        for start in stride(from: 0, to: points.count, by: 1_000) {
            var insert = db.insert(into: "location_points").columns(
                "user_id",
                "recorded_at",
                "latitude",
                "longitude",
                "accuracy",
                "zone_id"
            )
            for placed in points[start..<min(start + 1_000, points.count)] {
                insert = insert.values(
                    SQLBind(placed.user),
                    SQLBind(placed.point.recordedAt),
                    SQLBind(placed.point.latitude),
                    SQLBind(placed.point.longitude),
                    SQLBind(placed.point.accuracy),
                    SQLBind(placed.zone?.id)
                )
            }
            for row in try await insert.ignoringConflicts(with: ["user_id", "recorded_at"]).returning("user_id").all() {
                inserted[try row.decode(column: "user_id", as: UUID.self), default: 0] += 1
            }
        }
        return inserted
    }

    /// The user's points in `[from, to)`, oldest first, with the zone name where a point stands for a zone.
    func points(
        user: UUID,
        from: Date,
        to: Date,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [(LocationPoint, String?)] {
        try await db.select().columns(
            SQLColumn("recorded_at", table: "p"),
            SQLColumn("latitude", table: "p"),
            SQLColumn("longitude", table: "p"),
            SQLColumn("accuracy", table: "p"),
            SQLAlias(SQLColumn("name", table: "z"), as: SQLIdentifier("zone_name"))
        )
        .from(SQLAlias(SQLIdentifier("location_points"), as: SQLIdentifier("p")))
        .join(
            SQLAlias(SQLIdentifier("private_zones"), as: SQLIdentifier("z")),
            method: SQLJoinMethod.left,
            on: SQLColumn("zone_id", table: "p"),
            .equal,
            SQLColumn("id", table: "z")
        )
        .where(SQLColumn("user_id", table: "p"), .equal, SQLBind(user))
        .where(SQLColumn("recorded_at", table: "p"), .greaterThanOrEqual, SQLBind(from))
        .where(SQLColumn("recorded_at", table: "p"), .lessThan, SQLBind(to))
        .orderBy(SQLColumn("recorded_at", table: "p")).limit(limit).all()
        .map { row in
            (
                LocationPoint(
                    latitude: try row.decode(column: "latitude", as: Double.self),
                    longitude: try row.decode(column: "longitude", as: Double.self),
                    accuracy: try row.decode(column: "accuracy", as: Double?.self),
                    recordedAt: try row.decode(column: "recorded_at", as: Date.self)
                ),
                try row.decode(column: "zone_name", as: String?.self)
            )
        }
    }

    /// Deletes the user's whole history: points, newest position and stays.
    func deleteHistory(user: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "location_points").where("user_id", .equal, user).run()
        try await db.delete(from: "live_positions").where("user_id", .equal, user).run()
        try await db.delete(from: "stays").where("user_id", .equal, user).run()
    }

    /// Everything of an erased account: history, zones and settings.
    func erase(user: UUID, on db: any SQLDatabase) async throws {
        try await deleteHistory(user: user, on: db)
        try await db.delete(from: "private_zones").where("user_id", .equal, user).run()
        try await db.delete(from: "location_settings").where("user_id", .equal, user).run()
    }

    /// Removes points recorded before `cutoff`; returns how many.
    func purgePoints(before cutoff: Date, on db: any SQLDatabase) async throws -> Int {
        try await db.delete(from: "location_points").where("recorded_at", .lessThan, cutoff).returning("user_id").all()
            .count
    }

    // MARK: Newest position

    func livePosition(
        user: UUID,
        on db: any SQLDatabase
    ) async throws -> (coordinate: Coordinate, recordedAt: Date, zone: UUID?)? {
        guard
            let row = try await db.select().columns("latitude", "longitude", "recorded_at", "zone_id").from(
                "live_positions"
            )
            .where("user_id", .equal, user).first()
        else { return nil }
        return (
            Coordinate(
                latitude: try row.decode(column: "latitude", as: Double.self),
                longitude: try row.decode(column: "longitude", as: Double.self)
            ),
            try row.decode(column: "recorded_at", as: Date.self), try row.decode(column: "zone_id", as: UUID?.self)
        )
    }

    /// Makes each point its person's newest position (one point per person).
    func setLivePositions(_ points: [PlacedPoint], on db: any SQLDatabase) async throws {
        guard !points.isEmpty else { return }
        var insert = db.insert(into: "live_positions").columns(
            "user_id",
            "latitude",
            "longitude",
            "accuracy",
            "zone_id",
            "recorded_at"
        )
        for placed in points {
            insert = insert.values(
                SQLBind(placed.user),
                SQLBind(placed.point.latitude),
                SQLBind(placed.point.longitude),
                SQLBind(placed.point.accuracy),
                SQLBind(placed.zone?.id),
                SQLBind(placed.point.recordedAt)
            )
        }
        try await insert.onConflict(with: ["user_id"]) {
            $0.set(excludedValueOf: "latitude").set(excludedValueOf: "longitude").set(excludedValueOf: "accuracy")
                .set(excludedValueOf: "zone_id").set(excludedValueOf: "recorded_at")
        }
        .run()
    }

    /// Every sharing user's newest position with their settings, fresher than `since`, for rebuilding the index.
    func livePositions(
        since: Date,
        on db: any SQLDatabase
    ) async throws
        -> [(
            user: UUID, username: String, displayName: String, coordinate: Coordinate, recordedAt: Date, zone: UUID?,
            sharing: LocationSharing
        )]
    {
        try await db.select().columns(
            SQLColumn("user_id", table: "p"),
            SQLColumn("latitude", table: "p"),
            SQLColumn("longitude", table: "p"),
            SQLColumn("recorded_at", table: "p"),
            SQLColumn("zone_id", table: "p"),
            SQLColumn("level", table: "s"),
            SQLColumn("zone_display", table: "s"),
            SQLColumn("username", table: "u"),
            SQLColumn("display_name", table: "u")
        )
        .from(SQLAlias(SQLIdentifier("live_positions"), as: SQLIdentifier("p")))
        .join(
            SQLAlias(SQLIdentifier("location_settings"), as: SQLIdentifier("s")),
            on: SQLColumn("user_id", table: "p"),
            .equal,
            SQLColumn("user_id", table: "s")
        )
        .join(
            SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")),
            on: SQLColumn("user_id", table: "p"),
            .equal,
            SQLColumn("id", table: "u")
        )
        .where(SQLColumn("level", table: "s"), .notEqual, SQLBind(SharingLevel.off.rawValue))
        .where(SQLColumn("recorded_at", table: "p"), .greaterThanOrEqual, SQLBind(since))
        .all()
        .map { row in
            (
                try row.decode(column: "user_id", as: UUID.self), try row.decode(column: "username", as: String.self),
                try row.decode(column: "display_name", as: String.self),
                Coordinate(
                    latitude: try row.decode(column: "latitude", as: Double.self),
                    longitude: try row.decode(column: "longitude", as: Double.self)
                ),
                try row.decode(column: "recorded_at", as: Date.self), try row.decode(column: "zone_id", as: UUID?.self),
                LocationSharing(
                    level: SharingLevel(rawValue: try row.decode(column: "level", as: String.self)) ?? .off,
                    zoneDisplay: ZoneDisplay(rawValue: try row.decode(column: "zone_display", as: String.self))
                        ?? .decoy
                )
            )
        }
    }

    /// The decoy point of a zone, for the map.
    func decoy(zone: UUID, on db: any SQLDatabase) async throws -> Coordinate? {
        try await db.select().columns("decoy_latitude", "decoy_longitude").from("private_zones").where(
            "id",
            .equal,
            zone
        ).first().map { row in
            Coordinate(
                latitude: try row.decode(column: "decoy_latitude", as: Double.self),
                longitude: try row.decode(column: "decoy_longitude", as: Double.self)
            )
        }
    }
}
