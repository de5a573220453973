import Foundation

/// Who may learn where the user is: nobody, businesses they stand in, or also the public map.
public enum SharingLevel: String, Codable, Sendable, CaseIterable {
    /// Nothing is recorded or shown (the default).
    case off
    /// Businesses see the user in their presence list while the user is inside one of their locations.
    case merchants
    /// As `merchants`, plus an obfuscated dot on the public map.
    case map
}

/// What the public map shows while the user is inside a private zone.
public enum ZoneDisplay: String, Codable, Sendable, CaseIterable {
    /// The zone's decoy point, chosen once at random 0.5 to 2 km from its centre.
    case decoy
    /// No dot at all.
    case hidden
}

/// `GET` and `PUT /v1/me/location-sharing`.
public struct LocationSharing: Codable, Sendable, Hashable {
    public var level: SharingLevel
    public var zoneDisplay: ZoneDisplay?

    public init(level: SharingLevel, zoneDisplay: ZoneDisplay? = nil) {
        self.level = level
        self.zoneDisplay = zoneDisplay
    }

    /// `zoneDisplay` left out keeps the current choice; `null` is refused (see `decodeUnlessNull`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        level = try container.decode(SharingLevel.self, forKey: .level)
        zoneDisplay = try container.decodeUnlessNull(ZoneDisplay.self, forKey: .zoneDisplay)
    }
}

/// One recorded position. `accuracy` is the radius in metres of the fix's uncertainty, when known.
public struct LocationPoint: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var accuracy: Double?
    public var recordedAt: Date

    public init(latitude: Double, longitude: Double, accuracy: Double? = nil, recordedAt: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.recordedAt = recordedAt
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// `POST /v1/me/locations`: 1 to 1,000 points, in any order.
public struct LocationUpload: Codable, Sendable, Hashable {
    public var points: [LocationPoint]

    public init(points: [LocationPoint]) {
        self.points = points
    }
}

/// What an upload stored: new points, and repeats of points already stored (ignored).
public struct LocationUploadResult: Codable, Sendable, Hashable {
    public var accepted: Int
    public var duplicates: Int

    public init(accepted: Int, duplicates: Int) {
        self.accepted = accepted
        self.duplicates = duplicates
    }
}

/// A place where the user's position is never revealed to anyone else.
public struct PrivateZone: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var radiusMeters: Int
    public var createdAt: Date

    public init(id: UUID, name: String, latitude: Double, longitude: Double, radiusMeters: Int, createdAt: Date) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMeters = radiusMeters
        self.createdAt = createdAt
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// Whether a point lies inside the zone (its edge counts as inside): the one rule the server and the SDK's
    /// uploader apply alike.
    public func contains(_ point: Coordinate) -> Bool {
        PrivateZone.contains(center: coordinate, radiusMeters: radiusMeters, point)
    }

    public static func contains(center: Coordinate, radiusMeters: Int, _ point: Coordinate) -> Bool {
        center.distance(to: point) <= Double(radiusMeters)
    }
}

/// `POST /v1/me/private-zones` and `PUT /v1/me/private-zones/{id}`.
public struct PrivateZoneRequest: Codable, Sendable, Hashable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var radiusMeters: Int

    public init(name: String, latitude: Double, longitude: Double, radiusMeters: Int) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMeters = radiusMeters
    }
}

/// A customer in the shop now, as the business's staff see them: never coordinates.
public struct PresentCustomer: Codable, Sendable, Hashable {
    public var username: String
    public var displayName: String
    public var locationId: UUID
    /// When the customer's current stay began.
    public var since: Date

    public init(username: String, displayName: String, locationId: UUID, since: Date) {
        self.username = username
        self.displayName = displayName
        self.locationId = locationId
        self.since = since
    }
}
