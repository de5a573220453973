import Foundation
import PlazaCore
import SQLKit

/// The SQL of redeem codes, redemptions and a business's loyalty history.
extension LoyaltyStore {
    // MARK: Rewards

    /// Files a card's redeem code, replacing any earlier one; false when the digits are taken (draw again).
    func insertRedeemCode(
        _ code: String,
        card: CardRecord,
        expiresAt: Date,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.delete(from: "loyalty_redeem_codes").where {
            $0.where("card_id", .equal, card.id).orWhere("expires_at", .lessThan, now)
        }.run()
        return try await db.insert(into: "loyalty_redeem_codes").columns("code", "card_id", "business_id", "expires_at")
            .values(SQLBind(code), SQLBind(card.id), SQLBind(card.businessId), SQLBind(expiresAt)).ignoringConflicts(
                with: ["code"])
            .returning("code").first() != nil
    }

    /// The card a live redeem code stands for, its business and when the code expires.
    func redeemCode(
        _ code: String,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (card: UUID, business: UUID, expiresAt: Date)? {
        try await db.select().columns("card_id", "business_id", "expires_at").from("loyalty_redeem_codes").where(
            "code",
            .equal,
            code
        )
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
                SQLBind(redemption.id),
                SQLBind(card.id),
                SQLBind(card.programId),
                SQLBind(card.businessId),
                SQLBind(card.userId),
                SQLBind(redemption.locationId),
                SQLBind(redemption.reward),
                SQLBind(staff),
                SQLBind(redemption.redeemedAt)
            ).run()
    }

    /// A card's redemption with the usernames of its holder and of the staff member who confirmed it.
    func redemption(card: UUID, on db: any SQLDatabase) async throws -> LoyaltyRedemption? {
        try await db.select().columns(
            SQLColumn("id", table: "r"),
            SQLColumn("card_id", table: "r"),
            SQLColumn("program_id", table: "r"),
            SQLColumn("location_id", table: "r"),
            SQLColumn("reward", table: "r"),
            SQLColumn("redeemed_at", table: "r"),
            SQLAlias(SQLColumn("username", table: "c"), as: SQLIdentifier("customer")),
            SQLAlias(SQLColumn("username", table: "s"), as: SQLIdentifier("staff"))
        )
        .from(SQLAlias(SQLIdentifier("loyalty_redemptions"), as: SQLIdentifier("r")))
        .join(
            SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("c")),
            on: SQLColumn("id", table: "c"),
            .equal,
            SQLColumn("user_id", table: "r")
        )
        .join(
            SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("s")),
            on: SQLColumn("id", table: "s"),
            .equal,
            SQLColumn("redeemed_by", table: "r")
        )
        .where(SQLColumn("card_id", table: "r"), .equal, SQLBind(card)).first().map {
            LoyaltyRedemption(
                id: try $0.decode(column: "id", as: UUID.self),
                cardId: try $0.decode(column: "card_id", as: UUID.self),
                programId: try $0.decode(column: "program_id", as: UUID.self),
                reward: try $0.decode(column: "reward", as: String.self),
                customer: try $0.decode(column: "customer", as: String.self),
                locationId: try $0.decode(column: "location_id", as: UUID.self),
                redeemedBy: try $0.decode(column: "staff", as: String.self),
                redeemedAt: try $0.decode(column: "redeemed_at", as: Date.self)
            )
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
            "(SELECT p.location_id FROM loyalty_punches p WHERE p.card_id = k.id ORDER BY p.counted_at DESC, p.id DESC LIMIT 1)"
        )
        var completed = db.select().column(SQLColumn("id", table: "k")).column(SQLColumn("program_id", table: "k"))
            .column(SQLColumn("completed_at", table: "k")).column(SQLColumn("username", table: "u"))
            .column(SQLAlias(lastPunch, as: SQLIdentifier("location_id")))
            .from(SQLAlias(SQLIdentifier("loyalty_cards"), as: SQLIdentifier("k")))
            .join(
                SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")),
                on: SQLColumn("id", table: "u"),
                .equal,
                SQLColumn("user_id", table: "k")
            )
            .where(SQLColumn("business_id", table: "k"), .equal, SQLBind(filter.business))
            .where(SQLColumn("completed_at", table: "k"), .isNot, SQLLiteral.null)
        if let program = filter.program {
            completed = completed.where(SQLColumn("program_id", table: "k"), .equal, SQLBind(program))
        }
        if let location = filter.location { completed = completed.where(lastPunch, .equal, SQLBind(location)) }
        if let from = filter.from {
            completed = completed.where(SQLColumn("completed_at", table: "k"), .greaterThanOrEqual, SQLBind(from))
        }
        if let to = filter.to {
            completed = completed.where(SQLColumn("completed_at", table: "k"), .lessThan, SQLBind(to))
        }
        let cards = try await completed.orderBy(
            SQLOrderBy(expression: SQLColumn("completed_at", table: "k"), direction: SQLDirection.descending)
        )
        .orderBy(SQLOrderBy(expression: SQLColumn("id", table: "k"), direction: SQLDirection.descending))
        .limit(limit).all().map {
            LoyaltyHistoryEntry(
                kind: .completed,
                cardId: try $0.decode(column: "id", as: UUID.self),
                programId: try $0.decode(column: "program_id", as: UUID.self),
                customer: try $0.decode(column: "username", as: String.self),
                locationId: try $0.decode(column: "location_id", as: UUID?.self),
                redemptionId: nil,
                occurredAt: try $0.decode(column: "completed_at", as: Date.self)
            )
        }
        var redeemed = db.select().columns(
            SQLColumn("id", table: "r"),
            SQLColumn("card_id", table: "r"),
            SQLColumn("program_id", table: "r"),
            SQLColumn("location_id", table: "r"),
            SQLColumn("redeemed_at", table: "r"),
            SQLColumn("username", table: "u")
        )
        .from(SQLAlias(SQLIdentifier("loyalty_redemptions"), as: SQLIdentifier("r")))
        .join(
            SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")),
            on: SQLColumn("id", table: "u"),
            .equal,
            SQLColumn("user_id", table: "r")
        )
        .where(SQLColumn("business_id", table: "r"), .equal, SQLBind(filter.business))
        if let program = filter.program {
            redeemed = redeemed.where(SQLColumn("program_id", table: "r"), .equal, SQLBind(program))
        }
        if let location = filter.location {
            redeemed = redeemed.where(SQLColumn("location_id", table: "r"), .equal, SQLBind(location))
        }
        if let from = filter.from {
            redeemed = redeemed.where(SQLColumn("redeemed_at", table: "r"), .greaterThanOrEqual, SQLBind(from))
        }
        if let to = filter.to {
            redeemed = redeemed.where(SQLColumn("redeemed_at", table: "r"), .lessThan, SQLBind(to))
        }
        let redemptions = try await redeemed.orderBy(
            SQLOrderBy(expression: SQLColumn("redeemed_at", table: "r"), direction: SQLDirection.descending)
        )
        .orderBy(SQLOrderBy(expression: SQLColumn("id", table: "r"), direction: SQLDirection.descending)).limit(limit)
        .all().map {
            LoyaltyHistoryEntry(
                kind: .redeemed,
                cardId: try $0.decode(column: "card_id", as: UUID.self),
                programId: try $0.decode(column: "program_id", as: UUID.self),
                customer: try $0.decode(column: "username", as: String.self),
                locationId: try $0.decode(column: "location_id", as: UUID.self),
                redemptionId: try $0.decode(column: "id", as: UUID.self),
                occurredAt: try $0.decode(column: "redeemed_at", as: Date.self)
            )
        }
        return cards + redemptions
    }
}
