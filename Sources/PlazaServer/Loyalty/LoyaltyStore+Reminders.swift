import Foundation
import PlazaCore
import SQLKit

/// Loyalty's SQL for reminding holders before their punches expire.
extension LoyaltyStore {
    /// A card whose punches expire soon, as its holder is told.
    struct ExpiryReminder: Sendable {
        var card: UUID
        var user: UUID
        var business: UUID
        var title: String
        var punches: Int
        var expiresAt: Date
    }

    /// Marks the active cards with punches that expire after `now` and by `now + ahead`, and that were not reminded of
    /// that expiry yet, as reminded of it; answers them. Conditional, so that of two processes only one reminds a card.
    func remindExpiringPunches(
        now: Date,
        ahead: TimeInterval,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [ExpiryReminder] {
        func due<Builder: SQLPredicateBuilder>(_ query: Builder) -> Builder {
            query.where("state", .equal, LoyaltyCardState.active.rawValue)
                .where("punches", .greaterThan, SQLLiteral.numeric("0"))
                .where("expires_at", .greaterThan, now)
                .where("expires_at", .lessThanOrEqual, now.addingTimeInterval(ahead))
                .where {
                    $0.where("expiry_reminded_for", .is, SQLLiteral.null).orWhere(
                        "expiry_reminded_for",
                        .notEqual,
                        SQLIdentifier("expires_at")
                    )
                }
        }
        let ids = try await due(db.select().column("id").from("loyalty_cards")).limit(limit).all().map {
            try $0.decode(column: "id", as: UUID.self)
        }
        guard !ids.isEmpty else { return [] }
        let update = db.update("loyalty_cards").set("expiry_reminded_for", to: SQLIdentifier("expires_at"))
            .where("id", .in, SQLBind.group(ids))
        return try await due(update).returning("id", "user_id", "business_id", "title", "punches", "expires_at").all()
            .map {
                ExpiryReminder(
                    card: try $0.decode(column: "id", as: UUID.self),
                    user: try $0.decode(column: "user_id", as: UUID.self),
                    business: try $0.decode(column: "business_id", as: UUID.self),
                    title: try $0.decode(column: "title", as: String.self),
                    punches: try $0.decode(column: "punches", as: Int.self),
                    expiresAt: try $0.decode(column: "expires_at", as: Date.self)
                )
            }
    }
}
