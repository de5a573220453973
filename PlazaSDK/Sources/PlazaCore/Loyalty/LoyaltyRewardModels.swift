import Foundation

/// A code a customer shows at the counter, single use: a completed card's redeem code
/// (`POST /v1/me/loyalty-cards/{id}/redeem-code`, 2 minutes) or an active card's punch code
/// (`POST /v1/me/loyalty-cards/{id}/punch-code`, 30 seconds) for shops that prefer to scan the customer.
public struct CustomerCode: Codable, Sendable, Hashable {
    /// Eight digits to read out or type.
    public var code: String
    /// The QR's text: `plaza:redeem:` or `plaza:punch:` and the server-signed code.
    public var qrPayload: String
    public var expiresAt: Date

    public init(code: String, qrPayload: String, expiresAt: Date) {
        self.code = code
        self.qrPayload = qrPayload
        self.expiresAt = expiresAt
    }
}

public typealias RedeemCode = CustomerCode

/// `POST /v1/businesses/{id}/loyalty/punches`: staff punch a customer's card by the code it shows (digits or the
/// scanned `qrPayload`), at a location; `count` punches for one visit (1 when absent, at most the program's
/// `punchesRequired` and `LoyaltyRules.counterCount`).
public struct CounterPunchRequest: Codable, Sendable, Hashable {
    public var code: String
    public var locationId: UUID
    public var count: Int?

    public init(code: String, locationId: UUID, count: Int? = nil) {
        self.code = code
        self.locationId = locationId
        self.count = count
    }
}

/// The answer to a counter punch: the card as it now stands, `counted` or `refused` with the reason.
public struct CounterPunch: Codable, Sendable, Hashable {
    /// The punch's id (counted punches keep it in the card's history).
    public var id: UUID
    public var status: PunchStatus
    public var reason: PunchRefusal?
    /// The customer's username.
    public var customer: String
    public var card: LoyaltyCard
    /// The punches this one added to `card` (0 when refused; fewer than asked when the card filled).
    public var punchesAdded: Int

    public init(
        id: UUID,
        status: PunchStatus,
        reason: PunchRefusal? = nil,
        customer: String,
        card: LoyaltyCard,
        punchesAdded: Int = 0
    ) {
        self.id = id
        self.status = status
        self.reason = reason
        self.customer = customer
        self.card = card
        self.punchesAdded = punchesAdded
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
        kind: LoyaltyHistoryKind,
        cardId: UUID,
        programId: UUID,
        customer: String,
        locationId: UUID?,
        redemptionId: UUID?,
        occurredAt: Date
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

/// `GET /v1/me/loyalty-cards/{id}/google-wallet`: the "Save to Google Wallet" link of a card, and the JWT in it.
public struct GoogleWalletLink: Codable, Sendable, Hashable {
    /// `https://pay.google.com/gp/v/save/<jwt>`.
    public var saveUrl: String
    public var jwt: String

    public init(saveUrl: String, jwt: String) {
        self.saveUrl = saveUrl
        self.jwt = jwt
    }
}
