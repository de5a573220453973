import Foundation

/// `POST /v1/me/loyalty-cards/{id}/redeem-code`: what a completed card shows at the counter (single use, 2 minutes).
public struct RedeemCode: Codable, Sendable, Hashable {
    /// Eight digits to read out or type.
    public var code: String
    /// The QR's text: `plaza:redeem:` and the server-signed code.
    public var qrPayload: String
    public var expiresAt: Date

    public init(code: String, qrPayload: String, expiresAt: Date) {
        self.code = code
        self.qrPayload = qrPayload
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/businesses/{id}/loyalty-redemptions`: the digits or the scanned `qrPayload`, at a location.
public struct RedemptionRequest: Codable, Sendable, Hashable {
    public var code: String
    public var locationId: UUID

    public init(code: String, locationId: UUID) {
        self.code = code
        self.locationId = locationId
    }
}

public enum LoyaltyHistoryKind: String, Codable, Sendable, Hashable {
    case completed, redeemed
}

/// A line of a business's loyalty history (`GET /v1/businesses/{id}/loyalty/history`).
public struct LoyaltyHistoryEntry: Codable, Sendable, Hashable {
    public var kind: LoyaltyHistoryKind
    public var cardId: UUID
    public var programId: UUID
    /// The customer's username.
    public var customer: String
    /// Where the card was completed (its last punch) or redeemed.
    public var locationId: UUID?
    public var redemptionId: UUID?
    public var occurredAt: Date

    public init(
        kind: LoyaltyHistoryKind, cardId: UUID, programId: UUID, customer: String, locationId: UUID?, redemptionId: UUID?, occurredAt: Date
    ) {
        self.kind = kind
        self.cardId = cardId
        self.programId = programId
        self.customer = customer
        self.locationId = locationId
        self.redemptionId = redemptionId
        self.occurredAt = occurredAt
    }
}
