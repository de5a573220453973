import Foundation

/// A further level of a program: completing a card of one level starts a card of the next (the last repeats).
public struct LoyaltyLevel: Codable, Sendable, Hashable {
    public var punchesRequired: Int
    public var reward: String

    public init(punchesRequired: Int, reward: String) {
        self.punchesRequired = punchesRequired
        self.reward = reward
    }
}

public enum LoyaltyProgramState: String, Codable, Sendable, CaseIterable, Hashable {
    /// Customers take cards and collect punches.
    case active
    /// No new cards or punches for now; cards keep what they hold.
    case paused
    /// Ended for good: every open card ended `expired` and its holder was told.
    case expired
}

/// One of a business's Ed25519 keys that sign punch tokens: `publicKey` is the raw 32 bytes, unpadded base64url.
public struct LoyaltySigningKey: Codable, Sendable, Hashable {
    public var keyId: String
    public var publicKey: String
    /// Set on a rotated-out key: tokens it signed before then count for the sync grace after.
    public var retiredAt: Date?

    public init(keyId: String, publicKey: String, retiredAt: Date? = nil) {
        self.keyId = keyId
        self.publicKey = publicKey
        self.retiredAt = retiredAt
    }
}

/// How many punches a paid charge earns on a program that earns on payment: one a purchase, or one for each whole
/// `per` spent (`"one"` or `{"per": Money}` in JSON).
public enum PunchesPerPurchase: Codable, Sendable, Hashable {
    case one
    case per(Money)

    private enum CodingKeys: String, CodingKey { case per }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            guard text == "one" else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "Use \"one\" or {\"per\": an amount}.")
                )
            }
            self = .one
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .per(try container.decode(Money.self, forKey: .per))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .one:
            var container = encoder.singleValueContainer()
            try container.encode("one")
        case .per(let money):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(money, forKey: .per)
        }
    }
}

/// `POST /v1/businesses/{id}/loyalty-programs`, and the fields `PATCH` may change.
public struct LoyaltyProgramRequest: Codable, Sendable, Hashable {
    public var title: String
    public var description: String?
    public var punchesRequired: Int
    public var reward: String
    /// Levels after the first (which is `punchesRequired` for `reward`).
    public var levels: [LoyaltyLevel]?
    /// When the program ends by itself.
    public var expiresAt: Date?
    /// Days a card stays valid from its first punch; its punches expire with it.
    public var cardValidDays: Int?
    /// What a purchase must come to for a punch (staff check it at the counter).
    public var minimumSpend: Money?
    /// A customer holds at most one card of the program that is not redeemed.
    public var oneCardAtATime: Bool?
    /// Minutes within which a customer's second punch on the program is refused (0 turns the rule off; default 10).
    public var velocityWindowMinutes: Int?
    /// A paid Plaza charge at the business punches the payer's card (false when left out).
    public var earnOnPayment: Bool?
    /// What a paid charge earns when `earnOnPayment` (default `.one`).
    public var punchesPerPurchase: PunchesPerPurchase?

    public init(
        title: String,
        description: String? = nil,
        punchesRequired: Int,
        reward: String,
        levels: [LoyaltyLevel]? = nil,
        expiresAt: Date? = nil,
        cardValidDays: Int? = nil,
        minimumSpend: Money? = nil,
        oneCardAtATime: Bool? = nil,
        velocityWindowMinutes: Int? = nil,
        earnOnPayment: Bool? = nil,
        punchesPerPurchase: PunchesPerPurchase? = nil
    ) {
        self.title = title
        self.description = description
        self.punchesRequired = punchesRequired
        self.reward = reward
        self.levels = levels
        self.expiresAt = expiresAt
        self.cardValidDays = cardValidDays
        self.minimumSpend = minimumSpend
        self.oneCardAtATime = oneCardAtATime
        self.velocityWindowMinutes = velocityWindowMinutes
        self.earnOnPayment = earnOnPayment
        self.punchesPerPurchase = punchesPerPurchase
    }

    /// Optional fields may be left out, not sent as `null` (see `decodeUnlessNull`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        description = try container.decodeUnlessNull(String.self, forKey: .description)
        punchesRequired = try container.decode(Int.self, forKey: .punchesRequired)
        reward = try container.decode(String.self, forKey: .reward)
        levels = try container.decodeUnlessNull([LoyaltyLevel].self, forKey: .levels)
        expiresAt = try container.decodeUnlessNull(Date.self, forKey: .expiresAt)
        cardValidDays = try container.decodeUnlessNull(Int.self, forKey: .cardValidDays)
        minimumSpend = try container.decodeUnlessNull(Money.self, forKey: .minimumSpend)
        oneCardAtATime = try container.decodeUnlessNull(Bool.self, forKey: .oneCardAtATime)
        velocityWindowMinutes = try container.decodeUnlessNull(Int.self, forKey: .velocityWindowMinutes)
        earnOnPayment = try container.decodeUnlessNull(Bool.self, forKey: .earnOnPayment)
        punchesPerPurchase = try container.decodeUnlessNull(PunchesPerPurchase.self, forKey: .punchesPerPurchase)
    }
}

/// A program as anyone sees it (`GET /v1/loyalty-programs/{id}`).
public struct LoyaltyProgram: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var businessId: UUID
    public var businessName: String
    public var title: String
    public var description: String
    public var punchesRequired: Int
    public var reward: String
    public var levels: [LoyaltyLevel]
    public var expiresAt: Date?
    public var cardValidDays: Int?
    public var minimumSpend: Money?
    public var oneCardAtATime: Bool
    public var velocityWindowMinutes: Int
    /// A paid Plaza charge at the business punches the payer's card.
    public var earnOnPayment: Bool
    /// What a paid charge earns.
    public var punchesPerPurchase: PunchesPerPurchase
    public var state: LoyaltyProgramState
    /// The business's keys, current first: a token verifies offline against one of them.
    public var signingKeys: [LoyaltySigningKey]
    public var createdAt: Date

    public init(
        id: UUID,
        businessId: UUID,
        businessName: String,
        title: String,
        description: String,
        punchesRequired: Int,
        reward: String,
        levels: [LoyaltyLevel],
        expiresAt: Date?,
        cardValidDays: Int?,
        minimumSpend: Money?,
        oneCardAtATime: Bool,
        velocityWindowMinutes: Int,
        earnOnPayment: Bool = false,
        punchesPerPurchase: PunchesPerPurchase = .one,
        state: LoyaltyProgramState,
        signingKeys: [LoyaltySigningKey],
        createdAt: Date
    ) {
        self.id = id
        self.businessId = businessId
        self.businessName = businessName
        self.title = title
        self.description = description
        self.punchesRequired = punchesRequired
        self.reward = reward
        self.levels = levels
        self.expiresAt = expiresAt
        self.cardValidDays = cardValidDays
        self.minimumSpend = minimumSpend
        self.oneCardAtATime = oneCardAtATime
        self.velocityWindowMinutes = velocityWindowMinutes
        self.earnOnPayment = earnOnPayment
        self.punchesPerPurchase = punchesPerPurchase
        self.state = state
        self.signingKeys = signingKeys
        self.createdAt = createdAt
    }

    /// Level `n` (1-based): its punches and reward; past the last level, the last repeats.
    public func level(_ n: Int) -> LoyaltyLevel {
        LoyaltyRules.level(n, first: LoyaltyLevel(punchesRequired: punchesRequired, reward: reward), further: levels)
    }
}

/// `PATCH /v1/loyalty-programs/{id}`: owners pause, resume or expire it, or change its wording (always) and its rules
/// (only while no customer holds a card).
public struct LoyaltyProgramChange: Codable, Sendable, Hashable {
    public var state: LoyaltyProgramState?
    public var title: String?
    public var description: String?
    public var reward: String?
    public var punchesRequired: Int?
    public var levels: [LoyaltyLevel]?
    public var expiresAt: Date?
    public var cardValidDays: Int?
    public var velocityWindowMinutes: Int?
    /// Counts for charges paid after the change.
    public var earnOnPayment: Bool?
    public var punchesPerPurchase: PunchesPerPurchase?

    public init(
        state: LoyaltyProgramState? = nil,
        title: String? = nil,
        description: String? = nil,
        reward: String? = nil,
        punchesRequired: Int? = nil,
        levels: [LoyaltyLevel]? = nil,
        expiresAt: Date? = nil,
        cardValidDays: Int? = nil,
        velocityWindowMinutes: Int? = nil,
        earnOnPayment: Bool? = nil,
        punchesPerPurchase: PunchesPerPurchase? = nil
    ) {
        self.state = state
        self.title = title
        self.description = description
        self.reward = reward
        self.punchesRequired = punchesRequired
        self.levels = levels
        self.expiresAt = expiresAt
        self.cardValidDays = cardValidDays
        self.velocityWindowMinutes = velocityWindowMinutes
        self.earnOnPayment = earnOnPayment
        self.punchesPerPurchase = punchesPerPurchase
    }

    /// A field left out stays as it is; `null` is refused (see `decodeUnlessNull`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        state = try container.decodeUnlessNull(LoyaltyProgramState.self, forKey: .state)
        title = try container.decodeUnlessNull(String.self, forKey: .title)
        description = try container.decodeUnlessNull(String.self, forKey: .description)
        reward = try container.decodeUnlessNull(String.self, forKey: .reward)
        punchesRequired = try container.decodeUnlessNull(Int.self, forKey: .punchesRequired)
        levels = try container.decodeUnlessNull([LoyaltyLevel].self, forKey: .levels)
        expiresAt = try container.decodeUnlessNull(Date.self, forKey: .expiresAt)
        cardValidDays = try container.decodeUnlessNull(Int.self, forKey: .cardValidDays)
        velocityWindowMinutes = try container.decodeUnlessNull(Int.self, forKey: .velocityWindowMinutes)
        earnOnPayment = try container.decodeUnlessNull(Bool.self, forKey: .earnOnPayment)
        punchesPerPurchase = try container.decodeUnlessNull(PunchesPerPurchase.self, forKey: .punchesPerPurchase)
    }
}

public enum LoyaltyCardState: String, Codable, Sendable, CaseIterable, Hashable {
    /// Collecting punches.
    case active
    /// All punches collected: the reward waits to be redeemed.
    case completed
    case redeemed
    /// The program ended, or the card's validity ran out, before it was completed.
    case expired
}

/// A customer's card (`GET /v1/me/loyalty-cards`).
public struct LoyaltyCard: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var programId: UUID
    public var businessId: UUID
    public var businessName: String
    public var title: String
    public var reward: String
    public var level: Int
    public var state: LoyaltyCardState
    public var punches: Int
    public var punchesRequired: Int
    public var createdAt: Date
    /// When its punches expire, for a program with `cardValidDays` (set by the first punch).
    public var expiresAt: Date?
    public var completedAt: Date?
    public var redeemedAt: Date?

    public init(
        id: UUID,
        programId: UUID,
        businessId: UUID,
        businessName: String,
        title: String,
        reward: String,
        level: Int,
        state: LoyaltyCardState,
        punches: Int,
        punchesRequired: Int,
        createdAt: Date,
        expiresAt: Date? = nil,
        completedAt: Date? = nil,
        redeemedAt: Date? = nil
    ) {
        self.id = id
        self.programId = programId
        self.businessId = businessId
        self.businessName = businessName
        self.title = title
        self.reward = reward
        self.level = level
        self.state = state
        self.punches = punches
        self.punchesRequired = punchesRequired
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.completedAt = completedAt
        self.redeemedAt = redeemedAt
    }
}
