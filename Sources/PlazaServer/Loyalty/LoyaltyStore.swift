import Foundation
import PlazaCore
import SQLKit

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
                SQLBind(program.id),
                SQLBind(program.businessId),
                SQLBind(program.title),
                SQLBind(program.description),
                SQLBind(program.punchesRequired),
                SQLBind(program.reward),
                SQLBind(Self.json(program.levels)),
                SQLBind(program.expiresAt),
                SQLBind(program.cardValidDays),
                SQLBind(program.minimumSpend?.amount),
                SQLBind(program.minimumSpend?.currency),
                SQLBind(program.oneCardAtATime),
                SQLBind(program.velocityWindowMinutes),
                SQLBind(program.state.rawValue),
                SQLBind(program.createdAt),
                SQLBind(program.earnOnPayment),
                SQLBind(program.punchPer?.amount),
                SQLBind(program.punchPer?.currency),
                SQLBind(now)
            ).run()
    }

    func update(_ program: ProgramRecord, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("loyalty_programs").set("title", to: program.title).set(
            "description",
            to: program.description
        )
        .set("punches_required", to: program.punchesRequired).set("reward", to: program.reward).set(
            "levels",
            to: Self.json(program.levels)
        )
        .set("expires_at", to: program.expiresAt).set("card_valid_days", to: program.cardValidDays)
        .set("velocity_window_minutes", to: program.velocityWindowMinutes).set(
            "earn_on_payment",
            to: program.earnOnPayment
        )
        .set("punch_per_amount", to: program.punchPer?.amount).set("punch_per_currency", to: program.punchPer?.currency)
        .set("state", to: program.state.rawValue).set(
            "updated_at",
            to: now
        )
        .where("id", .equal, program.id).run()
    }

    func program(_ id: UUID, forUpdate: Bool = false, on db: any SQLDatabase) async throws -> ProgramRecord? {
        var select = db.select().columns(ProgramRecord.columns.map { SQLIdentifier($0) }).from("loyalty_programs")
            .where("id", .equal, id)
        if forUpdate { select = select.for(.update) }
        return try await select.first().map(ProgramRecord.init(row:))
    }

    /// A business's programs: active and paused first (by title), expired after.
    func programs(business: UUID, on db: any SQLDatabase) async throws -> [ProgramRecord] {
        try await db.select().columns(ProgramRecord.columns.map { SQLIdentifier($0) }).from("loyalty_programs").where(
            "business_id",
            .equal,
            business
        )
        .orderBy(SQLRaw("CASE state WHEN 'expired' THEN 1 ELSE 0 END")).orderBy(
            SQLFunction("lower", args: SQLIdentifier("title"))
        )
        .orderBy("id").all().map(ProgramRecord.init(row:))
    }

    /// Active programs whose own end has come.
    func programsPastTheirEnd(now: Date, on db: any SQLDatabase) async throws -> [UUID] {
        try await db.select().column("id").from("loyalty_programs").where(
            "state",
            .notEqual,
            LoyaltyProgramState.expired.rawValue
        )
        .where("expires_at", .lessThanOrEqual, now).all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    /// Whether any of the business's programs is active.
    func runsPrograms(business: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("loyalty_programs").where("business_id", .equal, business)
            .where("state", .equal, LoyaltyProgramState.active.rawValue).limit(1).first() != nil
    }

    func titleTaken(_ title: String, business: UUID, except: UUID?, on db: any SQLDatabase) async throws -> Bool {
        var select = db.select().column("id").from("loyalty_programs").where("business_id", .equal, business)
            .where(SQLFunction("lower", args: SQLIdentifier("title")), .equal, SQLBind(title.lowercased()))
            .where("state", .notEqual, LoyaltyProgramState.expired.rawValue)
        if let except { select = select.where("id", .notEqual, except) }
        return try await select.first() != nil
    }

    // MARK: Cards

    func insert(_ card: CardRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "loyalty_cards").columns(CardRecord.columns).values(card.values).run()
    }

    func card(_ id: UUID, forUpdate: Bool = false, on db: any SQLDatabase) async throws -> CardRecord? {
        var select = db.select().columns(CardRecord.columns.map { SQLIdentifier($0) }).from("loyalty_cards").where(
            "id",
            .equal,
            id
        )
        if forUpdate { select = select.for(.update) }
        return try await select.first().map(CardRecord.init(row:))
    }

    func cards(ids: [UUID], on db: any SQLDatabase) async throws -> [CardRecord] {
        guard !ids.isEmpty else { return [] }
        return try await db.select().columns(CardRecord.columns.map { SQLIdentifier($0) }).from("loyalty_cards").where(
            "id",
            .in,
            SQLBind.group(ids)
        )
        .all().map(CardRecord.init(row:))
    }

    /// The user's cards in `states`, newest first, after the cursor card `after`.
    func cards(
        user: UUID,
        states: [LoyaltyCardState],
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [CardRecord] {
        try await db.select().columns(CardRecord.columns.map { SQLIdentifier($0) }).from("loyalty_cards").where(
            "user_id",
            .equal,
            user
        )
        .where("state", .in, SQLBind.group(states.map(\.rawValue))).newestFirst(
            after: after,
            in: "loyalty_cards",
            by: "created_at"
        ).limit(limit)
        .all().map(CardRecord.init(row:))
    }

    /// The user's cards of the program that are not redeemed or expired (one-card-at-a-time counts them).
    func openCards(program: UUID, user: UUID, on db: any SQLDatabase) async throws -> [CardRecord] {
        try await db.select().columns(CardRecord.columns.map { SQLIdentifier($0) }).from("loyalty_cards").where(
            "program_id",
            .equal,
            program
        )
        .where("user_id", .equal, user).where(
            "state",
            .in,
            SQLBind.group([LoyaltyCardState.active.rawValue, LoyaltyCardState.completed.rawValue])
        )
        .all().map(CardRecord.init(row:))
    }

    func save(_ card: CardRecord, on db: any SQLDatabase) async throws {
        try await db.update("loyalty_cards").set("punches", to: card.punches).set("state", to: card.state.rawValue)
            .set("expires_at", to: card.expiresAt).set("completed_at", to: card.completedAt).set(
                "redeemed_at",
                to: card.redeemedAt
            )
            .where("id", .equal, card.id).run()
    }

    /// Ends every active card of the program; returns their holders.
    func expireCards(program: UUID, on db: any SQLDatabase) async throws -> [UUID] {
        try await db.update("loyalty_cards").set("state", to: LoyaltyCardState.expired.rawValue).where(
            "program_id",
            .equal,
            program
        )
        .where("state", .equal, LoyaltyCardState.active.rawValue).returning("user_id").all().map {
            try $0.decode(column: "user_id", as: UUID.self)
        }
    }

    /// Expires the active cards whose own life ended by `now`; answers each with its holder and business.
    func expireLapsedCards(
        now: Date,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [(card: UUID, user: UUID, business: UUID, title: String)] {
        let due = try await db.select().columns("id").from("loyalty_cards").where(
            "state",
            .equal,
            LoyaltyCardState.active.rawValue
        )
        .where("expires_at", .lessThanOrEqual, now).limit(limit).all().map {
            try $0.decode(column: "id", as: UUID.self)
        }
        guard !due.isEmpty else { return [] }
        // Still active when written: a punch that filled the card meanwhile keeps it.
        return try await db.update("loyalty_cards").set("state", to: LoyaltyCardState.expired.rawValue).where(
            "id",
            .in,
            SQLBind.group(due)
        )
        .where("state", .equal, LoyaltyCardState.active.rawValue).returning("id", "user_id", "business_id", "title")
        .all().map {
            (
                try $0.decode(column: "id", as: UUID.self), try $0.decode(column: "user_id", as: UUID.self),
                try $0.decode(column: "business_id", as: UUID.self), try $0.decode(column: "title", as: String.self)
            )
        }
    }

    func holdsCards(program: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("loyalty_cards").where("program_id", .equal, program).limit(1).first()
            != nil
    }

    // MARK: Punches

    func punch(_ id: UUID, on db: any SQLDatabase) async throws -> StoredPunch? {
        try await db.select().columns("card_id", "token_hash").from("loyalty_punches").where("id", .equal, id).first()
            .map {
                StoredPunch(
                    cardId: try $0.decode(column: "card_id", as: UUID.self),
                    tokenHash: try $0.decode(column: "token_hash", as: String.self)
                )
            }
    }

    func usedToken(user: UUID, tokenHash: String, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("loyalty_punches").where("user_id", .equal, user).where(
            "token_hash",
            .equal,
            tokenHash
        ).first()
            != nil
    }

    /// Whether the user has a counted punch on the program whose window lies within `windows` of `window`.
    func punchedNear(
        user: UUID,
        program: UUID,
        window: Int64,
        windows: Int64,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.select().column("id").from("loyalty_punches").where("user_id", .equal, user).where(
            "program_id",
            .equal,
            program
        )
        .where("token_window", .greaterThan, window - windows).where("token_window", .lessThan, window + windows).limit(
            1
        ).first() != nil
    }

    /// Counts a punch (`punches` of them at once, leaving the card at `cardPunches`) unless its id or its token (for
    /// this user) is in already; false then (nothing written).
    func insertPunch(
        id: UUID,
        card: CardRecord,
        location: UUID,
        tokenHash: String,
        window: Int64,
        scannedAt: Date,
        punches: Int = 1,
        cardPunches: Int,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.insert(into: "loyalty_punches")
            .columns(
                "id",
                "card_id",
                "program_id",
                "user_id",
                "location_id",
                "token_hash",
                "token_window",
                "scanned_at",
                "counted_at",
                "punches",
                "card_punches"
            )
            .values(
                SQLBind(id),
                SQLBind(card.id),
                SQLBind(card.programId),
                SQLBind(card.userId),
                SQLBind(location),
                SQLBind(tokenHash),
                SQLBind(window),
                SQLBind(scannedAt),
                SQLBind(now),
                SQLBind(punches),
                SQLBind(cardPunches)
            )
            .ignoringConflicts().returning("id").first() != nil
    }

    func punches(
        card: UUID,
        on db: any SQLDatabase
    ) async throws -> [(id: UUID, location: UUID, scannedAt: Date, countedAt: Date, punches: Int)] {
        try await db.select().columns("id", "location_id", "scanned_at", "counted_at", "punches")
            .from("loyalty_punches").where("card_id", .equal, card)
            .orderBy("counted_at").orderBy("id").all().map {
                (
                    try $0.decode(column: "id", as: UUID.self), try $0.decode(column: "location_id", as: UUID.self),
                    try $0.decode(column: "scanned_at", as: Date.self),
                    try $0.decode(column: "counted_at", as: Date.self), try $0.decode(column: "punches", as: Int.self)
                )
            }
    }

    static func json(_ levels: [LoyaltyLevel]) -> String {
        String(decoding: (try? JSONEncoder().encode(levels)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
