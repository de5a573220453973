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
    /// The punches paying earned on this card, oldest first (empty when none; absent from servers before issue 39).
    public var paymentPunches: [LoyaltyPaymentPunch]?

    public init(
        card: LoyaltyCard,
        punches: [LoyaltyPunch],
        redemption: LoyaltyRedemption?,
        paymentPunches: [LoyaltyPaymentPunch]? = nil
    ) {
        self.card = card
        self.punches = punches
        self.redemption = redemption
        self.paymentPunches = paymentPunches
    }
}

/// Punches a paid Plaza charge earned on a card: "+2 by paying PZ-7Q4K".
public struct LoyaltyPaymentPunch: Codable, Sendable, Hashable {
    public var chargeId: UUID
    /// The charge's receipt number (`PZ-…`).
    public var reference: String
    public var punchesAdded: Int
    /// What a refund of the charge took back of them (0 when nothing).
    public var takenBack: Int
    public var createdAt: Date

    public init(chargeId: UUID, reference: String, punchesAdded: Int, takenBack: Int, createdAt: Date) {
        self.chargeId = chargeId
        self.reference = reference
        self.punchesAdded = punchesAdded
        self.takenBack = takenBack
        self.createdAt = createdAt
    }
}
