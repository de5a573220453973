import Foundation
import PlazaCore
import SQLKit

/// A row of `loyalty_programs` (the business's name and keys join it in the service).
struct ProgramRecord: Sendable {
    var id: UUID
    var businessId: UUID
    var title: String
    var description: String
    var punchesRequired: Int
    var reward: String
    var levels: [LoyaltyLevel]
    var expiresAt: Date?
    var cardValidDays: Int?
    var minimumSpend: Money?
    var oneCardAtATime: Bool
    var velocityWindowMinutes: Int
    var earnOnPayment: Bool
    var punchesPerPurchase: PunchesPerPurchase
    var state: LoyaltyProgramState
    var createdAt: Date

    static let columns = [
        "id", "business_id", "title", "description", "punches_required", "reward", "levels", "expires_at",
        "card_valid_days",
        "minimum_spend_amount", "minimum_spend_currency", "one_card_at_a_time", "velocity_window_minutes", "state",
        "created_at", "earn_on_payment", "punch_per_amount", "punch_per_currency",
    ]

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        businessId = try row.decode(column: "business_id", as: UUID.self)
        title = try row.decode(column: "title", as: String.self)
        description = try row.decode(column: "description", as: String.self)
        punchesRequired = try row.decode(column: "punches_required", as: Int.self)
        reward = try row.decode(column: "reward", as: String.self)
        levels =
            (try? JSONDecoder().decode(
                [LoyaltyLevel].self,
                from: Data(try row.decode(column: "levels", as: String.self).utf8)
            )) ?? []
        expiresAt = try row.decode(column: "expires_at", as: Date?.self)
        cardValidDays = try row.decode(column: "card_valid_days", as: Int?.self)
        let amount = try row.decode(column: "minimum_spend_amount", as: Int64?.self)
        let currency = try row.decode(column: "minimum_spend_currency", as: String?.self)
        minimumSpend = amount.flatMap { amount in currency.map { Money(amount: amount, currency: $0) } }
        oneCardAtATime = try row.decode(column: "one_card_at_a_time", as: Bool.self)
        velocityWindowMinutes = try row.decode(column: "velocity_window_minutes", as: Int.self)
        earnOnPayment = try row.decode(column: "earn_on_payment", as: Bool.self)
        let perAmount = try row.decode(column: "punch_per_amount", as: Int64?.self)
        let perCurrency = try row.decode(column: "punch_per_currency", as: String?.self)
        punchesPerPurchase =
            perAmount.flatMap { amount in perCurrency.map { .per(Money(amount: amount, currency: $0)) } } ?? .one
        state = LoyaltyProgramState(rawValue: try row.decode(column: "state", as: String.self)) ?? .paused
        createdAt = try row.decode(column: "created_at", as: Date.self)
    }

    init(_ request: LoyaltyProgramRequest, business: UUID, now: Date) {
        id = UUID()
        businessId = business
        title = request.title.trimmingCharacters(in: .whitespacesAndNewlines)
        description = (request.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        punchesRequired = request.punchesRequired
        reward = request.reward.trimmingCharacters(in: .whitespacesAndNewlines)
        levels = (request.levels ?? []).map {
            LoyaltyLevel(punchesRequired: $0.punchesRequired, reward: $0.reward.trimmingCharacters(in: .whitespaces))
        }
        expiresAt = request.expiresAt
        cardValidDays = request.cardValidDays
        minimumSpend = request.minimumSpend
        oneCardAtATime = request.oneCardAtATime ?? true
        velocityWindowMinutes = request.velocityWindowMinutes ?? LoyaltyRules.defaultVelocityWindowMinutes
        earnOnPayment = request.earnOnPayment ?? false
        punchesPerPurchase = request.punchesPerPurchase ?? .one
        state = .active
        createdAt = now
    }

    /// The `punch_per_*` columns: both nil for a punch a purchase.
    var punchPer: Money? {
        if case .per(let money) = punchesPerPurchase { return money }
        return nil
    }

    func level(_ n: Int) -> LoyaltyLevel {
        LoyaltyRules.level(n, first: LoyaltyLevel(punchesRequired: punchesRequired, reward: reward), further: levels)
    }

    func dto(businessName: String, keys: [LoyaltySigningKey]) -> LoyaltyProgram {
        LoyaltyProgram(
            id: id,
            businessId: businessId,
            businessName: businessName,
            title: title,
            description: description,
            punchesRequired: punchesRequired,
            reward: reward,
            levels: levels,
            expiresAt: expiresAt,
            cardValidDays: cardValidDays,
            minimumSpend: minimumSpend,
            oneCardAtATime: oneCardAtATime,
            velocityWindowMinutes: velocityWindowMinutes,
            earnOnPayment: earnOnPayment,
            punchesPerPurchase: punchesPerPurchase,
            state: state,
            signingKeys: keys,
            createdAt: createdAt
        )
    }
}

/// A row of `loyalty_cards`.
struct CardRecord: Sendable {
    var id: UUID
    var programId: UUID
    var businessId: UUID
    var userId: UUID
    var level: Int
    var title: String
    var reward: String
    var punchesRequired: Int
    var punches: Int
    var state: LoyaltyCardState
    var createdAt: Date
    var expiresAt: Date?
    var completedAt: Date?
    var redeemedAt: Date?

    static let columns = [
        "id", "program_id", "business_id", "user_id", "level", "title", "reward", "punches_required", "punches",
        "state", "created_at", "expires_at",
        "completed_at", "redeemed_at",
    ]

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        programId = try row.decode(column: "program_id", as: UUID.self)
        businessId = try row.decode(column: "business_id", as: UUID.self)
        userId = try row.decode(column: "user_id", as: UUID.self)
        level = try row.decode(column: "level", as: Int.self)
        title = try row.decode(column: "title", as: String.self)
        reward = try row.decode(column: "reward", as: String.self)
        punchesRequired = try row.decode(column: "punches_required", as: Int.self)
        punches = try row.decode(column: "punches", as: Int.self)
        state = LoyaltyCardState(rawValue: try row.decode(column: "state", as: String.self)) ?? .expired
        createdAt = try row.decode(column: "created_at", as: Date.self)
        expiresAt = try row.decode(column: "expires_at", as: Date?.self)
        completedAt = try row.decode(column: "completed_at", as: Date?.self)
        redeemedAt = try row.decode(column: "redeemed_at", as: Date?.self)
    }

    init(program: ProgramRecord, user: UUID, level: Int, now: Date) {
        id = UUID()
        programId = program.id
        businessId = program.businessId
        userId = user
        self.level = level
        title = program.title
        let shape = program.level(level)
        reward = shape.reward
        punchesRequired = shape.punchesRequired
        punches = 0
        state = .active
        createdAt = now
    }

    var values: [any SQLExpression] {
        [
            SQLBind(id), SQLBind(programId), SQLBind(businessId), SQLBind(userId), SQLBind(level), SQLBind(title),
            SQLBind(reward),
            SQLBind(punchesRequired), SQLBind(punches), SQLBind(state.rawValue), SQLBind(createdAt), SQLBind(expiresAt),
            SQLBind(completedAt),
            SQLBind(redeemedAt),
        ]
    }

    func dto(businessName: String) -> LoyaltyCard {
        LoyaltyCard(
            id: id,
            programId: programId,
            businessId: businessId,
            businessName: businessName,
            title: title,
            reward: reward,
            level: level,
            state: state,
            punches: punches,
            punchesRequired: punchesRequired,
            createdAt: createdAt,
            expiresAt: expiresAt,
            completedAt: completedAt,
            redeemedAt: redeemedAt
        )
    }
}
