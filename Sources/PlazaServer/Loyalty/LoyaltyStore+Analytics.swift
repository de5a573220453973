import Foundation
import PlazaCore
import SQLKit

/// The SQL of a program's figures and of customers' consent to show a business their own card history.
extension LoyaltyStore {
    /// Everything that happened to a program: its punches, cards and redemptions (the months are cut in Swift, in the
    /// reader's time zone, the same on both engines).
    func facts(program: UUID, on db: any SQLDatabase) async throws -> LoyaltyAnalyticsRules.Facts {
        // A row that gave several punches (or a payment that earned several) counts each of them.
        let scanned = try await db.select().columns("user_id", "counted_at", "punches").from("loyalty_punches")
            .where("program_id", .equal, program).all()
            .flatMap {
                let punch = (
                    customer: try $0.decode(column: "user_id", as: UUID.self),
                    at: try $0.decode(column: "counted_at", as: Date.self)
                )
                return Array(repeating: punch, count: max(try $0.decode(column: "punches", as: Int.self), 0))
            }
        let paid = try await db.select().columns("user_id", "created_at", "punches_added", "taken_back")
            .from("loyalty_payment_punches").where("program_id", .equal, program).all()
            .flatMap {
                let punch = (
                    customer: try $0.decode(column: "user_id", as: UUID.self),
                    at: try $0.decode(column: "created_at", as: Date.self)
                )
                let kept =
                    try $0.decode(column: "punches_added", as: Int.self)
                    - $0.decode(column: "taken_back", as: Int.self)
                return Array(repeating: punch, count: max(kept, 0))
            }
        let punches = scanned + paid
        let cards = try await db.select().columns("user_id", "level", "created_at", "completed_at").from(
            "loyalty_cards"
        )
        .where("program_id", .equal, program).all()
        .map {
            (
                customer: try $0.decode(column: "user_id", as: UUID.self),
                level: try $0.decode(column: "level", as: Int.self),
                createdAt: try $0.decode(column: "created_at", as: Date.self),
                completedAt: try $0.decode(column: "completed_at", as: Date?.self)
            )
        }
        let redemptions = try await db.select().columns("user_id", "redeemed_at").from("loyalty_redemptions").where(
            "program_id",
            .equal,
            program
        )
        .all()
        .map {
            (
                customer: try $0.decode(column: "user_id", as: UUID.self),
                at: try $0.decode(column: "redeemed_at", as: Date.self)
            )
        }
        return LoyaltyAnalyticsRules.Facts(punches: punches, cards: cards, redemptions: redemptions)
    }

    // MARK: Sharing

    func setSharing(_ share: Bool, user: UUID, business: UUID, now: Date, on db: any SQLDatabase) async throws {
        if share {
            try await db.insert(into: "loyalty_sharing").columns("user_id", "business_id", "created_at")
                .values(SQLBind(user), SQLBind(business), SQLBind(now)).ignoringConflicts(with: [
                    "user_id", "business_id",
                ]).run()
        } else {
            try await db.delete(from: "loyalty_sharing").where("user_id", .equal, user).where(
                "business_id",
                .equal,
                business
            ).run()
        }
    }

    func shares(user: UUID, business: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("user_id").from("loyalty_sharing").where("user_id", .equal, user).where(
            "business_id",
            .equal,
            business
        )
        .first() != nil
    }

    /// The customers who let the business see their history, with their punches there: most recent visit first.
    func sharingCustomers(business: UUID, on db: any SQLDatabase) async throws -> [LoyaltyRegular] {
        let rows = try await db.select()
            .column(SQLColumn("username", table: "u")).column(SQLColumn("display_name", table: "u"))
            .column(
                SQLQueryString(
                    "(SELECT COALESCE(SUM(p.punches), 0) FROM loyalty_punches p JOIN loyalty_cards c ON c.id = p.card_id "
                        + "WHERE c.business_id = s.business_id AND p.user_id = s.user_id)"
                ),
                as: "punches"
            )
            .column(
                SQLQueryString(
                    "(SELECT MAX(p.counted_at) FROM loyalty_punches p JOIN loyalty_cards c ON c.id = p.card_id "
                        + "WHERE c.business_id = s.business_id AND p.user_id = s.user_id)"
                ),
                as: "last_visit"
            )
            .column(
                SQLQueryString(
                    "(SELECT COUNT(*) FROM loyalty_redemptions r WHERE r.business_id = s.business_id AND r.user_id = s.user_id)"
                ),
                as: "rewards"
            )
            .from(SQLAlias(SQLIdentifier("loyalty_sharing"), as: SQLIdentifier("s")))
            .join(
                SQLAlias(SQLIdentifier("users"), as: SQLIdentifier("u")),
                on: SQLColumn("id", table: "u"),
                .equal,
                SQLColumn("user_id", table: "s")
            )
            .where(SQLColumn("business_id", table: "s"), .equal, SQLBind(business)).all()
        return try rows.map {
            LoyaltyRegular(
                customer: try $0.decode(column: "username", as: String.self),
                displayName: try $0.decode(column: "display_name", as: String.self),
                punches: try $0.decode(column: "punches", as: Int.self),
                rewards: try $0.decode(column: "rewards", as: Int.self),
                lastVisit: try $0.decode(column: "last_visit", as: Date?.self)
            )
        }.sorted { ($0.lastVisit ?? .distantPast, $0.customer) > ($1.lastVisit ?? .distantPast, $1.customer) }
    }
}
