import Foundation

/// The payload of `presence.entered` and `presence.exited`.
public struct PresenceChange: Codable, Sendable, Hashable {
    public var businessId: UUID
    public var locationId: UUID
    public var username: String
    public var displayName: String

    public init(businessId: UUID, locationId: UUID, username: String, displayName: String) {
        self.businessId = businessId
        self.locationId = locationId
        self.username = username
        self.displayName = displayName
    }
}

/// The payload of `nearby.business`: the user is now inside this location's radius.
public struct NearbyBusiness: Codable, Sendable, Hashable {
    public var businessId: UUID
    public var locationId: UUID
    public var name: String
    public var category: BusinessCategory

    public init(businessId: UUID, locationId: UUID, name: String, category: BusinessCategory) {
        self.businessId = businessId
        self.locationId = locationId
        self.name = name
        self.category = category
    }
}
