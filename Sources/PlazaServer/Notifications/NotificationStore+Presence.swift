import Foundation
import PlazaCore
import SQLKit

/// The SQL of staff's `presence` push: who the customer is and whether the business knows them, which staff chose the
/// push, and each staff member's claim on telling of one customer (at most once a window, a few an hour).
extension NotificationStore {
    /// The customer behind a `presence.entered` event when the business may hear of them: they share their location
    /// with businesses (`merchants` or `map`) and they are known there, which here means they approved a charge of the
    /// business before (a paid visit; refunded ones count, declined ones do not).
    func knownCustomer(username: String, business: UUID, on db: any SQLDatabase) async throws -> UUID? {
        let row = try await db.raw(
            """
            SELECT u.id FROM users u WHERE u.username = \(bind: username) AND u.deleted_at IS NULL \
            AND EXISTS (SELECT 1 FROM location_settings s WHERE s.user_id = u.id \
            AND s.level IN (\(bind: SharingLevel.merchants.rawValue), \(bind: SharingLevel.map.rawValue))) \
            AND EXISTS (SELECT 1 FROM charges c WHERE c.customer_id = u.id AND c.business_id = \(bind: business) \
            AND c.status IN (\(bind: ChargeStatus.approved.rawValue), \(bind: ChargeStatus.refunded.rawValue)))
            """
        ).first()
        return try row?.decode(column: "id", as: UUID.self)
    }

    /// Of `users`, those who turned the `presence` push on (it is off unless chosen, so only a saved choice counts).
    func presenceListeners(among users: [UUID], on db: any SQLDatabase) async throws -> [UUID] {
        guard !users.isEmpty else { return [] }
        return try await db.select().column("user_id").from("notification_preferences")
            .where("user_id", .in, SQLBind.group(users)).where("kind", .equal, NotificationKind.presence.rawValue)
            .where("push", .equal, SQLBind(true)).all().map { try $0.decode(column: "user_id", as: UUID.self) }
    }

    /// Whether `user` works at a business (an owner or staff member): only they are offered the `presence` push.
    func worksAtABusiness(_ user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("user_id").from("business_members").where("user_id", .equal, user).limit(1)
            .first() != nil
    }

    /// The business's name, as a `presence` push says where.
    func businessName(_ business: UUID, on db: any SQLDatabase) async throws -> String? {
        try await db.select().column("name").from("businesses").where("id", .equal, business).first()?.decode(
            column: "name",
            as: String.self
        )
    }

    /// Claims telling `staff` that `customer` walked into `business`: false when they were told within the window, or
    /// have had their hourly share (`perHour`). The conditional update (or the insert that conflicts) decides between two arrivals
    /// at once.
    func claimPresenceAlert(
        staff: UUID,
        business: UUID,
        customer: UUID,
        now: Date,
        perHour: Int = NotificationRules.presencePerHour,
        on db: any SQLDatabase
    ) async throws -> Bool {
        let lastHour = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("presence_alerts").where("staff_id", .equal, staff)
            .where("sent_at", .greaterThan, now.addingTimeInterval(-3_600)).first()?.decode(column: "n", as: Int.self)
        guard (lastHour ?? 0) < perHour else { return false }
        let renewed = try await db.update("presence_alerts").set("sent_at", to: now).where("staff_id", .equal, staff)
            .where("business_id", .equal, business).where("customer_id", .equal, customer)
            .where("sent_at", .lessThanOrEqual, now.addingTimeInterval(-NotificationRules.presenceRepeatWindow))
            .returning("staff_id").first()
        if renewed != nil { return true }
        let inserted = try await db.insert(into: "presence_alerts")
            .columns("staff_id", "business_id", "customer_id", "sent_at")
            .values(SQLBind(staff), SQLBind(business), SQLBind(customer), SQLBind(now))
            .ignoringConflicts(with: ["staff_id", "business_id", "customer_id"])
            .returning("staff_id").first()
        return inserted != nil
    }
}
