import Foundation

/// `GET /v1/businesses/{id}/loyalty/punch-token`: what the counter shows, new each call.
public struct PunchToken: Codable, Sendable, Hashable {
    /// The QR's text: `base64url(payload).base64url(signature)`.
    public var token: String
    /// Six digits to type instead (online only).
    public var code: String
    public var programId: UUID
    public var locationId: UUID
    public var keyId: String
    public var expiresAt: Date

    public init(token: String, code: String, programId: UUID, locationId: UUID, keyId: String, expiresAt: Date) {
        self.token = token
        self.code = code
        self.programId = programId
        self.locationId = locationId
        self.keyId = keyId
        self.expiresAt = expiresAt
    }
}

/// One scan to count: `id` is made by the app at the scan (the ids are the idempotency).
public struct PunchSubmission: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var cardId: UUID
    public var token: String?
    public var code: String?
    public var scannedAt: Date

    public init(id: UUID = UUID(), cardId: UUID, token: String? = nil, code: String? = nil, scannedAt: Date = Date()) {
        self.id = id
        self.cardId = cardId
        self.token = token
        self.code = code
        self.scannedAt = scannedAt
    }

    /// `token` or `code` may be left out, not sent as `null` (see `decodeUnlessNull`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        cardId = try container.decode(UUID.self, forKey: .cardId)
        token = try container.decodeUnlessNull(String.self, forKey: .token)
        code = try container.decodeUnlessNull(String.self, forKey: .code)
        scannedAt = try container.decode(Date.self, forKey: .scannedAt)
    }
}

/// `POST /v1/me/loyalty-punches`.
public struct PunchBatch: Codable, Sendable, Hashable {
    public var punches: [PunchSubmission]

    public init(punches: [PunchSubmission]) {
        self.punches = punches
    }
}

public enum PunchStatus: String, Codable, Sendable, Hashable {
    case counted, duplicate, refused
}

/// Why a punch was not kept (the first that applies).
public enum PunchRefusal: String, Codable, Sendable, Hashable, CaseIterable {
    case notFound = "not_found"
    case malformed
    case wrongProgram = "wrong_program"
    case invalidSignature = "invalid_signature"
    case expired
    case invalidCode = "invalid_code"
    case idReused = "id_reused"
    case replayed
    case tooSoon = "too_soon"
    case cardNotActive = "card_not_active"
}

public struct PunchResult: Codable, Sendable, Hashable {
    public var id: UUID
    public var status: PunchStatus
    public var reason: PunchRefusal?

    public init(id: UUID, status: PunchStatus, reason: PunchRefusal? = nil) {
        self.id = id
        self.status = status
        self.reason = reason
    }
}

/// The answer to a batch: a result per punch in the order sent, and the cards touched as they now stand.
public struct PunchBatchResult: Codable, Sendable, Hashable {
    public var results: [PunchResult]
    public var cards: [LoyaltyCard]

    public init(results: [PunchResult], cards: [LoyaltyCard]) {
        self.results = results
        self.cards = cards
    }
}

/// What a paid charge earned on one program that earns on payment (`Charge.loyalty`, `Receipt.loyalty`): the punches
/// it added to the payer's card and the card as they left it.
public struct LoyaltyEarned: Codable, Sendable, Hashable {
    public var programId: UUID
    public var cardId: UUID
    public var punchesAdded: Int
    /// The card's punches after this purchase.
    public var punches: Int
    public var punchesRequired: Int
    /// This purchase filled the card: its reward waits to be redeemed.
    public var completed: Bool
    /// The card's title ("Bread card").
    public var title: String

    public init(
        programId: UUID,
        cardId: UUID,
        punchesAdded: Int,
        punches: Int,
        punchesRequired: Int,
        completed: Bool,
        title: String = ""
    ) {
        self.programId = programId
        self.cardId = cardId
        self.punchesAdded = punchesAdded
        self.punches = punches
        self.punchesRequired = punchesRequired
        self.completed = completed
        self.title = title
    }
}

/// `GET`/`PUT /v1/me/loyalty-settings`.
public struct LoyaltySettings: Codable, Sendable, Hashable {
    /// Paying a business whose program earns on payment takes a first card of it when the customer holds none (false
    /// until set).
    public var cardOnPayment: Bool

    public init(cardOnPayment: Bool) {
        self.cardOnPayment = cardOnPayment
    }
}
