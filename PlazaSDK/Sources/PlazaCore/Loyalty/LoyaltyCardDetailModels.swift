import Foundation

/// One counted punch of a card, with where and when.
public struct LoyaltyPunch: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var locationId: UUID
    public var locationName: String
    /// When the customer scanned it (their phone's word, shown only); counting goes by the token's window.
    public var scannedAt: Date
    public var countedAt: Date
    /// The punches it gave: staff may give several for one larger purchase.
    public var punches: Int

    public init(
        id: UUID,
        locationId: UUID,
        locationName: String,
        scannedAt: Date,
        countedAt: Date,
        punches: Int = 1
    ) {
        self.id = id
        self.locationId = locationId
        self.locationName = locationName
        self.scannedAt = scannedAt
        self.countedAt = countedAt
        self.punches = punches
    }
}

/// A redeemed reward (`POST /v1/businesses/{id}/loyalty-redemptions`, and a card's detail).
public struct LoyaltyRedemption: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var cardId: UUID
    public var programId: UUID
    public var reward: String
    /// The customer's username.
    public var customer: String
    public var locationId: UUID
    /// The staff member's username.
    public var redeemedBy: String
    public var redeemedAt: Date

    public init(
        id: UUID,
        cardId: UUID,
        programId: UUID,
        reward: String,
        customer: String,
        locationId: UUID,
        redeemedBy: String,
        redeemedAt: Date
    ) {
        self.id = id
        self.cardId = cardId
        self.programId = programId
        self.reward = reward
        self.customer = customer
        self.locationId = locationId
        self.redeemedBy = redeemedBy
        self.redeemedAt = redeemedAt
    }
}

/// `GET /v1/me/loyalty-cards/{id}`: the card with its punches and redemption.
public struct LoyaltyCardDetail: Codable, Sendable, Hashable {
    public var card: LoyaltyCard
    public var punches: [LoyaltyPunch]
    public var redemption: LoyaltyRedemption?

    public init(card: LoyaltyCard, punches: [LoyaltyPunch], redemption: LoyaltyRedemption?) {
        self.card = card
        self.punches = punches
        self.redemption = redemption
    }
}
