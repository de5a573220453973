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

/// The wallet's event types.
public enum WalletEventType {
    /// Money arrived from another user (to the recipient). Payload: `Transfer`.
    public static let transferReceived = "transfer.received"
    /// A top-up succeeded or failed (to its owner). Payload: `TopUp`.
    public static let topUpUpdated = "top_up.updated"
    /// A withdrawal was paid out or failed (to its owner). Payload: `Withdrawal`.
    public static let withdrawalUpdated = "withdrawal.updated"
    /// A merchant asks the customer to pay (to the customer and the business's staff). Payload: `Charge`.
    public static let chargeRequested = "charge.requested"
    /// The customer applied a coupon to a pending charge (to the customer and the business's staff). Payload: `Charge`.
    public static let chargeUpdated = "charge.updated"
    /// `charge.approved`, `charge.declined`, `charge.cancelled`, `charge.expired`, `charge.refunded`: payload `Charge`.
    public static func charge(_ status: ChargeStatus) -> String { "charge.\(status.rawValue)" }
}

/// Loyalty's event types.
public enum LoyaltyEventType {
    /// A punch was counted (to the card's holder and the business's staff). Payload: `LoyaltyCard`.
    public static let punched = "loyalty.punched"
    /// A reward was redeemed (to the holder and the staff). Payload: `LoyaltyRedemption`.
    public static let redeemed = "loyalty.redeemed"
}

/// What arrives for the person while a page or an app is open, to show where they are (a banner), worded by the
/// server: every notification (a charge to answer, a chat message, a decision about them, a full card) and a few live
/// moments of their own (a punch staff gave them).
public enum ArrivalEventType {
    /// To the person concerned. Payload: `NotificationContent` (its `title`, `body` and the page `link` opens).
    public static let arrived = "notification.arrived"
}

/// Offers' event types.
public enum OfferEventType {
    /// An offer reached the customer (to them). Payload: `Offer`.
    public static let received = "offer.received"
}
