import Foundation

/// A live event as `GET /v1/events` delivers it: `type` says what `data` holds.
public struct PlazaEvent: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var type: String
    public var occurredAt: Date
    public var data: JSONValue

    public init(id: UUID = UUID(), type: String, occurredAt: Date, data: JSONValue) {
        self.id = id
        self.type = type
        self.occurredAt = occurredAt
        self.data = data
    }

    /// The payload decoded as the type that goes with `type` (`PresenceChange` for `presence.*`).
    public func payload<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try data.decode(as: T.self)
    }
}

/// The event types Plaza sends.
public enum PlazaEventType {
    /// A customer came into one of the business's locations (to its owners and staff). Payload: `PresenceChange`.
    public static let presenceEntered = "presence.entered"
    /// A customer left, entered a private zone or stopped sharing. Payload: `PresenceChange`.
    public static let presenceExited = "presence.exited"
    /// The user came within reach of a business location (to that user). Payload: `NearbyBusiness`.
    public static let nearbyBusiness = "nearby.business"
}
