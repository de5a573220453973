import Foundation
import PlazaCore
import SQLKit

/// The SQL of the codes customers show at the counter, and of what the counter saw lately.
extension LoyaltyStore {
    /// Files an active card's punch code (earlier ones keep working until they expire: staff may be typing one as the
    /// phone turns to the next); false when the digits are taken (draw again).
    func insertCardCode(
        _ code: String,
        card: CardRecord,
        expiresAt: Date,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.delete(from: "loyalty_card_codes").where("expires_at", .lessThan, now).run()
        return try await db.insert(into: "loyalty_card_codes").columns("code", "card_id", "business_id", "expires_at")
            .values(SQLBind(code), SQLBind(card.id), SQLBind(card.businessId), SQLBind(expiresAt)).ignoringConflicts(
                with: ["code"])
            .returning("code").first() != nil
    }

    /// The card a live punch code stands for, and its business.
    func cardCode(
        _ code: String,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (card: UUID, business: UUID, expiresAt: Date)? {
        try await db.select().columns("card_id", "business_id", "expires_at").from("loyalty_card_codes").where(
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

    /// A punch code counts once: true for the one transaction that used it up.
    func deleteCardCode(_ code: String, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "loyalty_card_codes").where("code", .equal, code).returning("code").first() != nil
    }

    /// What happened at a business's counter since `since`, newest first: punches counted and rewards redeemed, with
    /// the customers' usernames.
    func counterActivity(
        business: UUID,
        since: Date,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [CounterActivity] {
        let punches = try await db.select()
            .column(SQLColumn("counted_at", table: "p"), as: "at").column(SQLColumn("username", table: "u"))
            .column(SQLColumn("punches", table: "p")).column(SQLColumn("card_punches", table: "p"))
            .column(SQLColumn("punches_required", table: "c")).column(SQLColumn("title", table: "c"))
            .from(SQLAlias(SQLIdentifier("loyalty_punches"), as: SQLIdentifier("p")))
            .withCardAndHolder(of: "p")
            .where(SQLColumn("business_id", table: "c"), .equal, SQLBind(business)).where(
                SQLColumn("counted_at", table: "p"),
                .greaterThanOrEqual,
                SQLBind(since)
            )
            .orderBy("at", .descending).limit(limit).all()
            .map {
                CounterActivity(
                    kind: .punched,
                    at: try $0.decode(column: "at", as: Date.self),
                    customer: try $0.decode(column: "username", as: String.self),
                    title: try $0.decode(column: "title", as: String.self),
                    added: try $0.decode(column: "punches", as: Int.self),
                    punches: try $0.decode(column: "card_punches", as: Int?.self),
                    punchesRequired: try $0.decode(column: "punches_required", as: Int.self),
                    reward: nil
                )
            }
        let paid = try await paidActivity(business: business, since: since, limit: limit, on: db)
        let redemptions = try await db.select()
            .column(SQLColumn("redeemed_at", table: "r"), as: "at").column(SQLColumn("username", table: "u")).column(
                SQLColumn("reward", table: "r")
            )
            .column(SQLColumn("title", table: "c"))
            .from(SQLAlias(SQLIdentifier("loyalty_redemptions"), as: SQLIdentifier("r")))
            .withCardAndHolder(of: "r")
            .where(SQLColumn("business_id", table: "r"), .equal, SQLBind(business)).where(
                SQLColumn("redeemed_at", table: "r"),
                .greaterThanOrEqual,
                SQLBind(since)
            )
            .orderBy("at", .descending).limit(limit).all()
            .map {
                CounterActivity(
                    kind: .redeemed,
                    at: try $0.decode(column: "at", as: Date.self),
                    customer: try $0.decode(column: "username", as: String.self),
                    title: try $0.decode(column: "title", as: String.self),
                    reward: try $0.decode(column: "reward", as: String.self)
                )
            }
        return Array((punches + paid + redemptions).sorted { $0.at > $1.at }.prefix(limit))
    }

    /// Punches paying earned at the business since `since` (those a refund took back whole are left out).
    private func paidActivity(
        business: UUID,
        since: Date,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [CounterActivity] {
        try await db.select()
            .column(SQLColumn("created_at", table: "q"), as: "at").column(SQLColumn("username", table: "u"))
            .column(SQLColumn("punches_added", table: "q")).column(SQLColumn("taken_back", table: "q"))
            .column(SQLColumn("punches", table: "q")).column(SQLColumn("punches_required", table: "q"))
            .column(SQLColumn("title", table: "c"))
            .from(SQLAlias(SQLIdentifier("loyalty_payment_punches"), as: SQLIdentifier("q")))
            .withCardAndHolder(of: "q")
            .where(SQLColumn("business_id", table: "c"), .equal, SQLBind(business))
            .where(SQLColumn("created_at", table: "q"), .greaterThanOrEqual, SQLBind(since))
            .where(SQLColumn("punches_added", table: "q"), .greaterThan, SQLColumn("taken_back", table: "q"))
            .orderBy("at", .descending).limit(limit).all()
            .map {
                CounterActivity(
                    kind: .paid,
                    at: try $0.decode(column: "at", as: Date.self),
                    customer: try $0.decode(column: "username", as: String.self),
                    title: try $0.decode(column: "title", as: String.self),
                    added: try $0.decode(column: "punches_added", as: Int.self)
                        - $0.decode(column: "taken_back", as: Int.self),
                    punches: try $0.decode(column: "punches", as: Int.self),
                    punchesRequired: try $0.decode(column: "punches_required", as: Int.self)
                )
            }
    }
}

/// A line of the counter's recent list.
struct CounterActivity: Sendable {
    /// Punched at the counter (or by a scan), punched by paying a charge, or a reward given.
    enum Kind { case punched, paid, redeemed }
    var kind: Kind
    var at: Date
    var customer: String
    var title: String
    /// The punches this line added (punches only).
    var added: Int? = nil
    /// The card's punches right after them (punches only; nil for punches counted before this was kept).
    var punches: Int? = nil
    var punchesRequired: Int? = nil
    var reward: String? = nil
}

extension SQLSelectBuilder {
    /// Joins the row's card (`c`) and its holder (`u`) to a counter list's table aliased `alias`.
    fileprivate func withCardAndHolder(of alias: String) -> Self {
        join(
            SQLAlias(SQLIdentifier("loyalty_cards"), as: SQLIdentifier("c")),
            on: SQLColumn("id", table: "c"),
            .equal,
            SQLColumn("card_id", table: alias)
        )
        .join(
            SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")),
            on: SQLColumn("id", table: "u"),
            .equal,
            SQLColumn("user_id", table: alias)
        )
    }
}
