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
    var state: LoyaltyProgramState
    var createdAt: Date

    static let columns = [
        "id", "business_id", "title", "description", "punches_required", "reward", "levels", "expires_at", "card_valid_days",
        "minimum_spend_amount", "minimum_spend_currency", "one_card_at_a_time", "velocity_window_minutes", "state", "created_at",
    ]

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        businessId = try row.decode(column: "business_id", as: UUID.self)
        title = try row.decode(column: "title", as: String.self)
        description = try row.decode(column: "description", as: String.self)
        punchesRequired = try row.decode(column: "punches_required", as: Int.self)
        reward = try row.decode(column: "reward", as: String.self)
        levels = (try? JSONDecoder().decode([LoyaltyLevel].self, from: Data(try row.decode(column: "levels", as: String.self).utf8))) ?? []
        expiresAt = try row.decode(column: "expires_at", as: Date?.self)
        cardValidDays = try row.decode(column: "card_valid_days", as: Int?.self)
        let amount = try row.decode(column: "minimum_spend_amount", as: Int64?.self)
        let currency = try row.decode(column: "minimum_spend_currency", as: String?.self)
        minimumSpend = amount.flatMap { amount in currency.map { Money(amount: amount, currency: $0) } }
        oneCardAtATime = try row.decode(column: "one_card_at_a_time", as: Bool.self)
        velocityWindowMinutes = try row.decode(column: "velocity_window_minutes", as: Int.self)
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
        state = .active
        createdAt = now
    }

    /// The program's first level: what a new card collects for.
    var firstLevel: LoyaltyLevel { LoyaltyLevel(punchesRequired: punchesRequired, reward: reward) }

    func level(_ n: Int) -> LoyaltyLevel {
        let all = [firstLevel] + levels
        return all[min(max(n, 1), all.count) - 1]
    }

    func dto(businessName: String, keys: [LoyaltySigningKey]) -> LoyaltyProgram {
        LoyaltyProgram(
            id: id, businessId: businessId, businessName: businessName, title: title, description: description, punchesRequired: punchesRequired,
            reward: reward, levels: levels, expiresAt: expiresAt, cardValidDays: cardValidDays, minimumSpend: minimumSpend,
            oneCardAtATime: oneCardAtATime, velocityWindowMinutes: velocityWindowMinutes, state: state, signingKeys: keys, createdAt: createdAt)
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
        "id", "program_id", "business_id", "user_id", "level", "title", "reward", "punches_required", "punches", "state", "created_at", "expires_at",
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
            SQLBind(id), SQLBind(programId), SQLBind(businessId), SQLBind(userId), SQLBind(level), SQLBind(title), SQLBind(reward),
            SQLBind(punchesRequired), SQLBind(punches), SQLBind(state.rawValue), SQLBind(createdAt), SQLBind(expiresAt), SQLBind(completedAt),
            SQLBind(redeemedAt),
        ]
    }

    func dto(businessName: String) -> LoyaltyCard {
        LoyaltyCard(
            id: id, programId: programId, businessId: businessId, businessName: businessName, title: title, reward: reward, level: level,
            state: state, punches: punches, punchesRequired: punchesRequired, createdAt: createdAt, expiresAt: expiresAt, completedAt: completedAt,
            redeemedAt: redeemedAt)
    }
}

/// A counted punch as stored: what tells a repeat (`duplicate`) from another token under the same id (`id_reused`).
struct StoredPunch: Sendable {
    var cardId: UUID
    var tokenHash: String
}

/// All SQL of loyalty: programs, keys, token counters and codes, cards, punches, redemptions.
struct LoyaltyStore: Sendable {
    // MARK: Programs

    func insert(_ program: ProgramRecord, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "loyalty_programs").columns(ProgramRecord.columns + ["updated_at"])
            .values(
                SQLBind(program.id), SQLBind(program.businessId), SQLBind(program.title), SQLBind(program.description),
                SQLBind(program.punchesRequired), SQLBind(program.reward), SQLBind(Self.json(program.levels)), SQLBind(program.expiresAt),
                SQLBind(program.cardValidDays), SQLBind(program.minimumSpend?.amount), SQLBind(program.minimumSpend?.currency),
                SQLBind(program.oneCardAtATime), SQLBind(program.velocityWindowMinutes), SQLBind(program.state.rawValue), SQLBind(program.createdAt),
                SQLBind(now)
            ).run()
    }

    func update(_ program: ProgramRecord, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("loyalty_programs").set("title", to: program.title).set("description", to: program.description)
            .set("punches_required", to: program.punchesRequired).set("reward", to: program.reward).set("levels", to: Self.json(program.levels))
            .set("expires_at", to: program.expiresAt).set("card_valid_days", to: program.cardValidDays)
            .set("velocity_window_minutes", to: program.velocityWindowMinutes).set("state", to: program.state.rawValue).set("updated_at", to: now)
            .where("id", .equal, program.id).run()
    }

    func program(_ id: UUID, forUpdate: Bool = false, on db: any SQLDatabase) async throws -> ProgramRecord? {
        var select = db.select().columns(ProgramRecord.columns.map { SQLIdentifier($0) }).from("loyalty_programs").where("id", .equal, id)
        if forUpdate { select = select.for(.update) }
        return try await select.first().map(ProgramRecord.init(row:))
    }

    /// A business's programs: active and paused first (by title), expired after.
    func programs(business: UUID, on db: any SQLDatabase) async throws -> [ProgramRecord] {
        try await db.select().columns(ProgramRecord.columns.map { SQLIdentifier($0) }).from("loyalty_programs").where("business_id", .equal, business)
            .orderBy(SQLRaw("CASE state WHEN 'expired' THEN 1 ELSE 0 END")).orderBy(SQLFunction("lower", args: SQLIdentifier("title")))
            .orderBy("id").all().map(ProgramRecord.init(row:))
    }

    /// Active programs whose own end has come.
    func programsPastTheirEnd(now: Date, on db: any SQLDatabase) async throws -> [UUID] {
        try await db.select().column("id").from("loyalty_programs").where("state", .notEqual, LoyaltyProgramState.expired.rawValue)
            .where("expires_at", .lessThanOrEqual, now).all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    func titleTaken(_ title: String, business: UUID, except: UUID?, on db: any SQLDatabase) async throws -> Bool {
        var select = db.select().column("id").from("loyalty_programs").where("business_id", .equal, business)
            .where(SQLFunction("lower", args: SQLIdentifier("title")), .equal, SQLBind(title.lowercased()))
            .where("state", .notEqual, LoyaltyProgramState.expired.rawValue)
        if let except { select = select.where("id", .notEqual, except) }
        return try await select.first() != nil
    }

    // MARK: Keys and tokens

    /// The business's keys, current (not retired) first, newest first.
    func keys(business: UUID, on db: any SQLDatabase) async throws -> [LoyaltySigningKey] {
        try await db.select().columns("key_id", "public_key", "retired_at").from("loyalty_keys").where("business_id", .equal, business)
            .orderBy(SQLRaw("CASE WHEN retired_at IS NULL THEN 0 ELSE 1 END")).orderBy("created_at", .descending).all()
            .map {
                LoyaltySigningKey(
                    keyId: try $0.decode(column: "key_id", as: String.self), publicKey: try $0.decode(column: "public_key", as: String.self),
                    retiredAt: try $0.decode(column: "retired_at", as: Date?.self))
            }
    }

    func insertKey(_ key: LoyaltySigningKey, business: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "loyalty_keys").columns("key_id", "business_id", "public_key", "created_at", "retired_at")
            .values(SQLBind(key.keyId), SQLBind(business), SQLBind(key.publicKey), SQLBind(now), SQLBind(nil as Date?)).run()
    }

    func retireKeys(business: UUID, at: Date, on db: any SQLDatabase) async throws {
        try await db.update("loyalty_keys").set("retired_at", to: at).where("business_id", .equal, business).where("retired_at", .is, SQLLiteral.null)
            .run()
    }

    /// The business's next token counter (1, 2, ...), in the caller's transaction.
    func nextCounter(business: UUID, on db: any SQLDatabase) async throws -> Int64 {
        let row = try await db.insert(into: "loyalty_token_counters").columns("business_id", "counter").values(SQLBind(business), SQLBind(1))
            .onConflict(with: ["business_id"]) { $0.set("counter", to: SQLRaw("loyalty_token_counters.counter + 1")) }
            .returning("counter").first()
        return try row?.decode(column: "counter", as: Int64.self) ?? 1
    }

    /// Files the six digits of a token; false when the program has the same digits live already (draw again).
    func insertCode(_ code: String, program: UUID, token: String, expiresAt: Date, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "loyalty_punch_codes").where("program_id", .equal, program).where("expires_at", .lessThan, now).run()
        return try await db.insert(into: "loyalty_punch_codes").columns("program_id", "code", "token", "expires_at")
            .values(SQLBind(program), SQLBind(code), SQLBind(token), SQLBind(expiresAt)).ignoringConflicts(with: ["program_id", "code"])
            .returning("code").first() != nil
    }

    /// The token behind typed digits, while its window lasts.
    func token(code: String, program: UUID, now: Date, on db: any SQLDatabase) async throws -> String? {
        try await db.select().column("token").from("loyalty_punch_codes").where("program_id", .equal, program).where("code", .equal, code)
            .where("expires_at", .greaterThan, now).first()?.decode(column: "token", as: String.self)
    }

    // MARK: Cards

    func insert(_ card: CardRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "loyalty_cards").columns(CardRecord.columns).values(card.values).run()
    }

    func card(_ id: UUID, forUpdate: Bool = false, on db: any SQLDatabase) async throws -> CardRecord? {
        var select = db.select().columns(CardRecord.columns.map { SQLIdentifier($0) }).from("loyalty_cards").where("id", .equal, id)
        if forUpdate { select = select.for(.update) }
        return try await select.first().map(CardRecord.init(row:))
    }

    func cards(ids: [UUID], on db: any SQLDatabase) async throws -> [CardRecord] {
        guard !ids.isEmpty else { return [] }
        return try await db.select().columns(CardRecord.columns.map { SQLIdentifier($0) }).from("loyalty_cards").where("id", .in, SQLBind.group(ids))
            .all().map(CardRecord.init(row:))
    }

    /// The user's cards in `states`, newest first, after the cursor card `after`.
    func cards(user: UUID, states: [LoyaltyCardState], limit: Int, after: UUID?, on db: any SQLDatabase) async throws -> [CardRecord] {
        try await db.select().columns(CardRecord.columns.map { SQLIdentifier($0) }).from("loyalty_cards").where("user_id", .equal, user)
            .where("state", .in, SQLBind.group(states.map(\.rawValue))).newestFirst(after: after, in: "loyalty_cards", by: "created_at").limit(limit)
            .all().map(CardRecord.init(row:))
    }

    /// The user's cards of the program that are not redeemed or expired (one-card-at-a-time counts them).
    func openCards(program: UUID, user: UUID, on db: any SQLDatabase) async throws -> [CardRecord] {
        try await db.select().columns(CardRecord.columns.map { SQLIdentifier($0) }).from("loyalty_cards").where("program_id", .equal, program)
            .where("user_id", .equal, user).where(
                "state", .in, SQLBind.group([LoyaltyCardState.active.rawValue, LoyaltyCardState.completed.rawValue])
            )
            .all().map(CardRecord.init(row:))
    }

    func save(_ card: CardRecord, on db: any SQLDatabase) async throws {
        try await db.update("loyalty_cards").set("punches", to: card.punches).set("state", to: card.state.rawValue)
            .set("expires_at", to: card.expiresAt).set("completed_at", to: card.completedAt).set("redeemed_at", to: card.redeemedAt)
            .where("id", .equal, card.id).run()
    }

    /// Ends every active card of the program; returns their holders.
    func expireCards(program: UUID, on db: any SQLDatabase) async throws -> [UUID] {
        try await db.update("loyalty_cards").set("state", to: LoyaltyCardState.expired.rawValue).where("program_id", .equal, program)
            .where("state", .equal, LoyaltyCardState.active.rawValue).returning("user_id").all().map {
                try $0.decode(column: "user_id", as: UUID.self)
            }
    }

    func holdsCards(program: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("loyalty_cards").where("program_id", .equal, program).limit(1).first() != nil
    }

    // MARK: Punches

    func punch(_ id: UUID, on db: any SQLDatabase) async throws -> StoredPunch? {
        try await db.select().columns("card_id", "token_hash").from("loyalty_punches").where("id", .equal, id).first().map {
            StoredPunch(cardId: try $0.decode(column: "card_id", as: UUID.self), tokenHash: try $0.decode(column: "token_hash", as: String.self))
        }
    }

    func usedToken(user: UUID, tokenHash: String, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("loyalty_punches").where("user_id", .equal, user).where("token_hash", .equal, tokenHash).first()
            != nil
    }

    /// Whether the user has a counted punch on the program whose window lies within `windows` of `window`.
    func punchedNear(user: UUID, program: UUID, window: Int64, windows: Int64, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("loyalty_punches").where("user_id", .equal, user).where("program_id", .equal, program)
            .where("token_window", .greaterThan, window - windows).where("token_window", .lessThan, window + windows).limit(1).first() != nil
    }

    /// Counts a punch unless its id or its token (for this user) is in already; false then (nothing written).
    func insertPunch(
        id: UUID, card: CardRecord, location: UUID, tokenHash: String, window: Int64, scannedAt: Date, now: Date, on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.insert(into: "loyalty_punches")
            .columns("id", "card_id", "program_id", "user_id", "location_id", "token_hash", "token_window", "scanned_at", "counted_at")
            .values(
                SQLBind(id), SQLBind(card.id), SQLBind(card.programId), SQLBind(card.userId), SQLBind(location), SQLBind(tokenHash), SQLBind(window),
                SQLBind(scannedAt), SQLBind(now)
            )
            .ignoringConflicts().returning("id").first() != nil
    }

    func punches(card: UUID, on db: any SQLDatabase) async throws -> [(id: UUID, location: UUID, scannedAt: Date, countedAt: Date)] {
        try await db.select().columns("id", "location_id", "scanned_at", "counted_at").from("loyalty_punches").where("card_id", .equal, card)
            .orderBy("counted_at").orderBy("id").all().map {
                (
                    try $0.decode(column: "id", as: UUID.self), try $0.decode(column: "location_id", as: UUID.self),
                    try $0.decode(column: "scanned_at", as: Date.self), try $0.decode(column: "counted_at", as: Date.self)
                )
            }
    }

    // MARK: Rewards

    /// Files a card's redeem code, replacing any earlier one; false when the digits are taken (draw again).
    func insertRedeemCode(_ code: String, card: CardRecord, expiresAt: Date, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "loyalty_redeem_codes").where {
            $0.where("card_id", .equal, card.id).orWhere("expires_at", .lessThan, now)
        }.run()
        return try await db.insert(into: "loyalty_redeem_codes").columns("code", "card_id", "business_id", "expires_at")
            .values(SQLBind(code), SQLBind(card.id), SQLBind(card.businessId), SQLBind(expiresAt)).ignoringConflicts(with: ["code"])
            .returning("code").first() != nil
    }

    /// The card a live redeem code stands for, its business and when the code expires.
    func redeemCode(_ code: String, now: Date, on db: any SQLDatabase) async throws -> (card: UUID, business: UUID, expiresAt: Date)? {
        try await db.select().columns("card_id", "business_id", "expires_at").from("loyalty_redeem_codes").where("code", .equal, code)
            .where("expires_at", .greaterThan, now).first().map {
                (
                    try $0.decode(column: "card_id", as: UUID.self), try $0.decode(column: "business_id", as: UUID.self),
                    try $0.decode(column: "expires_at", as: Date.self)
                )
            }
    }

    private static let redemptionColumns = [
        "id", "card_id", "program_id", "business_id", "user_id", "location_id", "reward", "redeemed_by", "redeemed_at",
    ]

    func insert(_ redemption: LoyaltyRedemption, card: CardRecord, staff: UUID, on db: any SQLDatabase) async throws {
        try await db.insert(into: "loyalty_redemptions").columns(Self.redemptionColumns)
            .values(
                SQLBind(redemption.id), SQLBind(card.id), SQLBind(card.programId), SQLBind(card.businessId), SQLBind(card.userId),
                SQLBind(redemption.locationId), SQLBind(redemption.reward), SQLBind(staff), SQLBind(redemption.redeemedAt)
            ).run()
    }

    /// A card's redemption with the usernames of its holder and of the staff member who confirmed it.
    func redemption(card: UUID, on db: any SQLDatabase) async throws -> LoyaltyRedemption? {
        try await db.select().columns(
            SQLColumn("id", table: "r"), SQLColumn("card_id", table: "r"), SQLColumn("program_id", table: "r"), SQLColumn("location_id", table: "r"),
            SQLColumn("reward", table: "r"), SQLColumn("redeemed_at", table: "r"),
            SQLAlias(SQLColumn("username", table: "c"), as: SQLIdentifier("customer")),
            SQLAlias(SQLColumn("username", table: "s"), as: SQLIdentifier("staff"))
        )
        .from(SQLAlias(SQLIdentifier("loyalty_redemptions"), as: SQLIdentifier("r")))
        .join(SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("c")), on: SQLColumn("id", table: "c"), .equal, SQLColumn("user_id", table: "r"))
        .join(SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("s")), on: SQLColumn("id", table: "s"), .equal, SQLColumn("redeemed_by", table: "r"))
        .where(SQLColumn("card_id", table: "r"), .equal, SQLBind(card)).first().map {
            LoyaltyRedemption(
                id: try $0.decode(column: "id", as: UUID.self), cardId: try $0.decode(column: "card_id", as: UUID.self),
                programId: try $0.decode(column: "program_id", as: UUID.self), reward: try $0.decode(column: "reward", as: String.self),
                customer: try $0.decode(column: "customer", as: String.self), locationId: try $0.decode(column: "location_id", as: UUID.self),
                redeemedBy: try $0.decode(column: "staff", as: String.self), redeemedAt: try $0.decode(column: "redeemed_at", as: Date.self))
        }
    }

    // MARK: History

    struct HistoryFilter: Sendable {
        var business: UUID
        var program: UUID?
        var location: UUID?
        var from: Date?
        var to: Date?
    }

    /// The business's completed cards and redemptions, newest first: the first `limit` of each (the service merges).
    func history(_ filter: HistoryFilter, limit: Int, on db: any SQLDatabase) async throws -> [LoyaltyHistoryEntry] {
        let lastPunch = SQLQueryString(
            "(SELECT p.location_id FROM loyalty_punches p WHERE p.card_id = k.id ORDER BY p.counted_at DESC, p.id DESC LIMIT 1)")
        var completed = db.select().column(SQLColumn("id", table: "k")).column(SQLColumn("program_id", table: "k"))
            .column(SQLColumn("completed_at", table: "k")).column(SQLColumn("username", table: "u"))
            .column(SQLAlias(lastPunch, as: SQLIdentifier("location_id")))
            .from(SQLAlias(SQLIdentifier("loyalty_cards"), as: SQLIdentifier("k")))
            .join(SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")), on: SQLColumn("id", table: "u"), .equal, SQLColumn("user_id", table: "k"))
            .where(SQLColumn("business_id", table: "k"), .equal, SQLBind(filter.business))
            .where(SQLColumn("completed_at", table: "k"), .isNot, SQLLiteral.null)
        if let program = filter.program { completed = completed.where(SQLColumn("program_id", table: "k"), .equal, SQLBind(program)) }
        if let location = filter.location { completed = completed.where(lastPunch, .equal, SQLBind(location)) }
        if let from = filter.from { completed = completed.where(SQLColumn("completed_at", table: "k"), .greaterThanOrEqual, SQLBind(from)) }
        if let to = filter.to { completed = completed.where(SQLColumn("completed_at", table: "k"), .lessThan, SQLBind(to)) }
        let cards = try await completed.orderBy(SQLOrderBy(expression: SQLColumn("completed_at", table: "k"), direction: SQLDirection.descending))
            .orderBy(SQLOrderBy(expression: SQLColumn("id", table: "k"), direction: SQLDirection.descending))
            .limit(limit).all().map {
                LoyaltyHistoryEntry(
                    kind: .completed, cardId: try $0.decode(column: "id", as: UUID.self),
                    programId: try $0.decode(column: "program_id", as: UUID.self),
                    customer: try $0.decode(column: "username", as: String.self), locationId: try $0.decode(column: "location_id", as: UUID?.self),
                    redemptionId: nil, occurredAt: try $0.decode(column: "completed_at", as: Date.self))
            }
        var redeemed = db.select().columns(
            SQLColumn("id", table: "r"), SQLColumn("card_id", table: "r"), SQLColumn("program_id", table: "r"), SQLColumn("location_id", table: "r"),
            SQLColumn("redeemed_at", table: "r"), SQLColumn("username", table: "u")
        )
        .from(SQLAlias(SQLIdentifier("loyalty_redemptions"), as: SQLIdentifier("r")))
        .join(SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")), on: SQLColumn("id", table: "u"), .equal, SQLColumn("user_id", table: "r"))
        .where(SQLColumn("business_id", table: "r"), .equal, SQLBind(filter.business))
        if let program = filter.program { redeemed = redeemed.where(SQLColumn("program_id", table: "r"), .equal, SQLBind(program)) }
        if let location = filter.location { redeemed = redeemed.where(SQLColumn("location_id", table: "r"), .equal, SQLBind(location)) }
        if let from = filter.from { redeemed = redeemed.where(SQLColumn("redeemed_at", table: "r"), .greaterThanOrEqual, SQLBind(from)) }
        if let to = filter.to { redeemed = redeemed.where(SQLColumn("redeemed_at", table: "r"), .lessThan, SQLBind(to)) }
        let redemptions = try await redeemed.orderBy(SQLOrderBy(expression: SQLColumn("redeemed_at", table: "r"), direction: SQLDirection.descending))
            .orderBy(SQLOrderBy(expression: SQLColumn("id", table: "r"), direction: SQLDirection.descending)).limit(limit).all().map {
                LoyaltyHistoryEntry(
                    kind: .redeemed, cardId: try $0.decode(column: "card_id", as: UUID.self),
                    programId: try $0.decode(column: "program_id", as: UUID.self), customer: try $0.decode(column: "username", as: String.self),
                    locationId: try $0.decode(column: "location_id", as: UUID.self), redemptionId: try $0.decode(column: "id", as: UUID.self),
                    occurredAt: try $0.decode(column: "redeemed_at", as: Date.self))
            }
        return cards + redemptions
    }

    static func json(_ levels: [LoyaltyLevel]) -> String {
        String(decoding: (try? JSONEncoder().encode(levels)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
