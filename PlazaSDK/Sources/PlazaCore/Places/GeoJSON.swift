import Foundation

/// A GeoJSON (RFC 7946) feature collection of points, with typed properties.
public struct GeoJSONFeatureCollection<Properties: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var type = "FeatureCollection"
    public var features: [GeoJSONFeature<Properties>]

    public init(features: [GeoJSONFeature<Properties>]) {
        self.features = features
    }
}

/// One point feature: RFC 7946 orders coordinates longitude first.
public struct GeoJSONFeature<Properties: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var type = "Feature"
    public var geometry: GeoJSONPoint
    public var properties: Properties

    public init(coordinate: Coordinate, properties: Properties) {
        geometry = GeoJSONPoint(coordinates: [coordinate.longitude, coordinate.latitude])
        self.properties = properties
    }

    public var coordinate: Coordinate {
        Coordinate(
            latitude: geometry.coordinates.count > 1 ? geometry.coordinates[1] : .nan,
            longitude: geometry.coordinates.first ?? .nan
        )
    }
}

public struct GeoJSONPoint: Codable, Sendable, Hashable {
    public var type = "Point"
    /// `[longitude, latitude]`.
    public var coordinates: [Double]

    public init(coordinates: [Double]) {
        self.coordinates = coordinates
    }
}

/// The properties of a point of the owner's exported history.
public struct HistoryPointProperties: Codable, Sendable, Hashable {
    public var recordedAt: Date
    public var accuracy: Double?
    /// Set when the point was recorded inside this private zone: only the zone's centre is kept.
    public var privateZone: String?

    public init(recordedAt: Date, accuracy: Double?, privateZone: String?) {
        self.recordedAt = recordedAt
        self.accuracy = accuracy
        self.privateZone = privateZone
    }
}

/// The properties of a map feature: a business location or a person's published (obfuscated) position.
public struct MapFeatureProperties: Codable, Sendable, Hashable {
    /// `business` or `person`.
    public var kind: String
    public var businessId: UUID?
    public var locationId: UUID?
    public var name: String?
    public var category: BusinessCategory?
    /// `not_enough_data`, `quieter`, `usual` or `busier`, for businesses.
    public var busyNow: String?
    /// The current line-wait estimate in minutes, when there are recent reports.
    public var lineWaitMinutes: Int?
    /// How busy it usually is at this hour (`quiet`, `moderate`, `busy`), from its popular times; absent without
    /// enough data for the hour. Says something when `busyNow` is `not_enough_data`.
    public var usualNow: UsualBusyness?
    /// Whether it is open now by its opening hours; absent when it gave none.
    public var openNow: Bool?

    public init(
        kind: String,
        businessId: UUID? = nil,
        locationId: UUID? = nil,
        name: String? = nil,
        category: BusinessCategory? = nil,
        busyNow: String? = nil,
        lineWaitMinutes: Int? = nil,
        usualNow: UsualBusyness? = nil,
        openNow: Bool? = nil
    ) {
        self.kind = kind
        self.businessId = businessId
        self.locationId = locationId
        self.name = name
        self.category = category
        self.busyNow = busyNow
        self.lineWaitMinutes = lineWaitMinutes
        self.usualNow = usualNow
        self.openNow = openNow
    }
}
