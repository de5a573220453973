import Foundation

/// What kind of place a business is; the category filter of the search.
public enum BusinessCategory: String, Codable, Sendable, CaseIterable {
    case cafe, restaurant, grocery, retail, services, entertainment, health, education, other
}

/// A member's standing in a business: owners change it, staff act for it (presence, charges).
public enum BusinessRole: String, Codable, Sendable, CaseIterable {
    case owner, staff
}

/// One opening period in the operator's time zone: ISO weekday (1 = Monday … 7 = Sunday), `HH:MM` to `HH:MM`.
/// A period that closes at or before it opens runs past midnight.
public struct OpeningPeriod: Codable, Sendable, Hashable {
    public var day: Int
    public var opens: String
    public var closes: String

    public init(day: Int, opens: String, closes: String) {
        self.day = day
        self.opens = opens
        self.closes = closes
    }
}

/// A business as anyone sees it, with its locations; `role` is the caller's own, when they are a member.
public struct Business: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var category: BusinessCategory
    public var description: String
    public var locations: [BusinessLocation]
    public var role: BusinessRole?
    /// Whether customers can find it: false until an admin approves its merchant (only its team sees it then).
    public var listed: Bool
    /// Whether it runs a loyalty program customers can take a card of now.
    public var hasLoyalty: Bool
    public var createdAt: Date
    /// The tips the counter suggests, in percent of what was bought (`[10, 15, 20]`); empty for none.
    public var tipPercents: [Int]
    /// The tax registration its receipts print ("VAT DE129273398"); nil for none.
    public var taxId: String?
    /// The tax rate its prices include, in percent (19, 7.7), for the receipt's tax line; nil for none.
    public var taxRate: Double?

    public init(
        id: UUID,
        name: String,
        category: BusinessCategory,
        description: String,
        locations: [BusinessLocation],
        role: BusinessRole?,
        listed: Bool = true,
        hasLoyalty: Bool = false,
        createdAt: Date,
        tipPercents: [Int] = [],
        taxId: String? = nil,
        taxRate: Double? = nil
    ) {
        self.tipPercents = tipPercents
        self.taxId = taxId
        self.taxRate = taxRate
        self.id = id
        self.name = name
        self.category = category
        self.description = description
        self.locations = locations
        self.role = role
        self.listed = listed
        self.hasLoyalty = hasLoyalty
        self.createdAt = createdAt
    }
}

/// A place where a business receives customers; "in the shop" means within `radiusMeters` of its point.
public struct BusinessLocation: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var businessId: UUID
    public var name: String
    public var address: String
    public var latitude: Double
    public var longitude: Double
    public var radiusMeters: Int
    public var openingHours: [OpeningPeriod]

    public init(
        id: UUID,
        businessId: UUID,
        name: String,
        address: String,
        latitude: Double,
        longitude: Double,
        radiusMeters: Int,
        openingHours: [OpeningPeriod]
    ) {
        self.id = id
        self.businessId = businessId
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMeters = radiusMeters
        self.openingHours = openingHours
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// `POST /v1/businesses`.
public struct CreateBusinessRequest: Codable, Sendable, Hashable {
    public var name: String
    public var category: BusinessCategory
    public var description: String?

    public init(name: String, category: BusinessCategory, description: String? = nil) {
        self.name = name
        self.category = category
        self.description = description
    }
}

/// `PATCH /v1/businesses/{id}`: only the given fields change.
public struct UpdateBusinessRequest: Codable, Sendable, Hashable {
    public var name: String?
    public var category: BusinessCategory?
    public var description: String?
    /// Up to 4 different percentages from 1 to 50; `[]` suggests no tips.
    public var tipPercents: [Int]?
    /// Up to 40 characters; empty removes it.
    public var taxId: String?
    /// Percent from 0 to 50 with at most two decimals; 0 removes the tax line.
    public var taxRate: Double?

    public init(
        name: String? = nil,
        category: BusinessCategory? = nil,
        description: String? = nil,
        tipPercents: [Int]? = nil,
        taxId: String? = nil,
        taxRate: Double? = nil
    ) {
        self.name = name
        self.category = category
        self.description = description
        self.tipPercents = tipPercents
        self.taxId = taxId
        self.taxRate = taxRate
    }
}

/// `POST /v1/businesses/{id}/locations` (and `PUT …/locations/{locationId}`).
public struct LocationRequest: Codable, Sendable, Hashable {
    public var name: String
    public var address: String
    public var latitude: Double
    public var longitude: Double
    public var radiusMeters: Int?
    public var openingHours: [OpeningPeriod]?

    public init(
        name: String,
        address: String,
        latitude: Double,
        longitude: Double,
        radiusMeters: Int? = nil,
        openingHours: [OpeningPeriod]? = nil
    ) {
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMeters = radiusMeters
        self.openingHours = openingHours
    }
}

/// A person linked to a business.
public struct BusinessMember: Codable, Sendable, Hashable {
    public var username: String
    public var displayName: String
    public var role: BusinessRole
    public var addedAt: Date

    public init(username: String, displayName: String, role: BusinessRole, addedAt: Date) {
        self.username = username
        self.displayName = displayName
        self.role = role
        self.addedAt = addedAt
    }
}

/// `POST /v1/businesses/{id}/members`: links an account by username (or changes its role).
public struct AddMemberRequest: Codable, Sendable, Hashable {
    public var username: String
    public var role: BusinessRole

    public init(username: String, role: BusinessRole) {
        self.username = username
        self.role = role
    }
}

/// A search or nearby result: the business and its location nearest to the point asked about.
public struct BusinessSummary: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var category: BusinessCategory
    public var location: BusinessLocation?
    /// From the point of a nearby search; absent for a text search without a point.
    public var distanceMeters: Double?
    /// Whether it runs a loyalty program customers can take a card of now.
    public var hasLoyalty: Bool

    public init(
        id: UUID,
        name: String,
        category: BusinessCategory,
        location: BusinessLocation?,
        distanceMeters: Double?,
        hasLoyalty: Bool = false
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.location = location
        self.distanceMeters = distanceMeters
        self.hasLoyalty = hasLoyalty
    }
}
