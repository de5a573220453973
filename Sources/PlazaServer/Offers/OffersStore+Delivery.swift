import Foundation
import PlazaCore
import SQLKit

/// What delivery reads and writes: the running campaigns, the customer's facts, and the offers received.
extension OffersStore {
    /// Active campaigns, as customers see them (the approved version).
    func activeCampaigns(on db: any SQLDatabase) async throws -> [CampaignRecord] {
        try await db.select().columns(Self.campaignColumnNames.map { SQLIdentifier($0) }).from("campaigns")
            .where("state", .equal, CampaignState.active.rawValue).all().map(Self.campaign)
    }

    /// The profile facts targeting may use (when the customer allows) and the zone their day and quiet hours are in.
    /// Read from the accounts' table, as every domain reads a user's name.
    func audienceFacts(
        user: UUID,
        on db: any SQLDatabase
    ) async throws -> (birthDate: String?, gender: Gender?, student: Bool, timeZone: String?)? {
        try await db.select().columns("birth_date", "gender", "student", "time_zone").from("users").where(
            "id",
            .equal,
            user
        ).first().map { row in
            (
                try row.decode(column: "birth_date", as: String?.self),
                try row.decode(column: "gender", as: String?.self).flatMap(Gender.init(rawValue:)),
                try row.decode(column: "student", as: Bool.self), try row.decode(column: "time_zone", as: String?.self)
            )
        }
    }

    /// The customer's subscriptions among `businesses`, by business.
    func subscriptions(
        user: UUID,
        businesses: Set<UUID>,
        on db: any SQLDatabase
    ) async throws -> [UUID: SubscriptionRequest] {
        guard !businesses.isEmpty else { return [:] }
        let rows = try await db.select().columns("business_id", "ads", "coupons").from("offer_subscriptions").where(
            "user_id",
            .equal,
            user
        )
        .where("business_id", .in, SQLBind.group(Array(businesses))).all()
        var found: [UUID: SubscriptionRequest] = [:]
        for row in rows {
            found[try row.decode(column: "business_id", as: UUID.self)] = SubscriptionRequest(
                ads: try row.decode(column: "ads", as: Bool.self),
                coupons: try row.decode(column: "coupons", as: Bool.self)
            )
        }
        return found
    }

    /// The businesses the user subscribed to, for ads or coupons.
    func subscribedBusinesses(user: UUID, on db: any SQLDatabase) async throws -> Set<UUID> {
        Set(
            try await db.select().column("business_id").from("offer_subscriptions").where("user_id", .equal, user)
                .where { $0.where("ads", .equal, true).orWhere("coupons", .equal, true) }.all()
                .map { try $0.decode(column: "business_id", as: UUID.self) }
        )
    }

    /// Who subscribed to the business's offers of `kind`.
    func subscribers(business: UUID, kind: CampaignKind, on db: any SQLDatabase) async throws -> [UUID] {
        try await db.select().column("user_id").from("offer_subscriptions").where("business_id", .equal, business)
            .where(SQLIdentifier(kind == .ad ? "ads" : "coupons"), .equal, true).all().map {
                try $0.decode(column: "user_id", as: UUID.self)
            }
    }

    /// The ids of the customers with these usernames (the ones present at a business when staff push a campaign).
    func userIDs(usernames: [String], on db: any SQLDatabase) async throws -> [UUID] {
        guard !usernames.isEmpty else { return [] }
        return try await db.select().column("id").from("users").where("username", .in, SQLBind.group(usernames)).all()
            .map { try $0.decode(column: "id", as: UUID.self) }
    }

    /// When the customer last paid the business (an approved charge), from the wallet's table.
    func lastPaid(user: UUID, business: UUID, on db: any SQLDatabase) async throws -> Date? {
        try await db.select().column(SQLFunction("max", args: SQLColumn("decided_at")), as: "paid").from("charges")
            .where("customer_id", .equal, user).where("business_id", .equal, business).where(
                "status",
                .in,
                ["approved", "refunded"]
            )
            .first()?.decode(column: "paid", as: Date?.self)
    }

    /// Which of `campaigns` the customer received already (dismissed ones too: they never come back).
    func received(user: UUID, of campaigns: [UUID], on db: any SQLDatabase) async throws -> Set<UUID> {
        guard !campaigns.isEmpty else { return [] }
        return Set(
            try await db.select().column("campaign_id").from("offers").where("user_id", .equal, user).where(
                "campaign_id",
                .in,
                SQLBind.group(campaigns)
            )
            .all().map { try $0.decode(column: "campaign_id", as: UUID.self) }
        )
    }

    /// How many offers reached the customer since `since` (the start of their day).
    func receivedCount(user: UUID, since: Date, on db: any SQLDatabase) async throws -> Int {
        try await db.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n").from("offers").where(
            "user_id",
            .equal,
            user
        )
        .where("received_at", .greaterThanOrEqual, since).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Records a delivery once; false when the customer had it already.
    func insertOffer(
        campaign: UUID,
        user: UUID,
        business: UUID,
        reasons: [OfferReason],
        at: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        let rows = try await db.insert(into: "offers").columns(
            "campaign_id",
            "user_id",
            "business_id",
            "received_at",
            "reasons"
        )
        .values(SQLBind(campaign), SQLBind(user), SQLBind(business), SQLBind(at), SQLBind(try Self.json(reasons)))
        .ignoringConflicts(with: ["campaign_id", "user_id"]).returning("campaign_id").all()
        return !rows.isEmpty
    }

    /// Campaigns whose time came: approved ones whose start passed, and running ones whose end did.
    func campaignsDue(now: Date, on db: any SQLDatabase) async throws -> [UUID] {
        try await db.select().column("id").from("campaigns").where { group in
            group.where {
                $0.where("state", .equal, CampaignState.approved.rawValue).where("starts_at", .lessThanOrEqual, now)
            }
            .orWhere {
                $0.where("state", .in, [CampaignState.approved, .active, .paused].map(\.rawValue)).where(
                    "ends_at",
                    .lessThanOrEqual,
                    now
                )
            }
        }.limit(200).all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    /// A campaign ended: its claims nobody used (and no charge holds) expire.
    func expireClaims(campaign: UUID, on db: any SQLDatabase) async throws {
        try await db.update("coupon_claims").set("status", to: CouponClaimStatus.expired.rawValue).where(
            "campaign_id",
            .equal,
            campaign
        )
        .where("status", .equal, CouponClaimStatus.claimed.rawValue).where("charge_id", .is, SQLLiteral.null).run()
    }
}

extension OffersStore {
    /// Someone a business's campaign could reach, as the editor's estimate reads them.
    struct Prospect: Sendable {
        var birthDate: String?
        var gender: Gender?
        var student: Bool
        var settings: OfferSettings
        var subscription: SubscriptionRequest?
        var lastPaid: Date?
    }

    /// Everyone a campaign of the business could reach: its subscribers, and the people who changed their offer
    /// settings (at the default level only subscriptions bring offers). With when each last paid the business, when
    /// `paid` asks (from the wallet's table, as `lastPaid` reads it).
    func prospects(business: UUID, paid: Bool, on db: any SQLDatabase) async throws -> [Prospect] {
        let lastPaid: SQLQueryString =
            paid
            ? """
            (SELECT max(c.decided_at) FROM charges c WHERE c.customer_id = u.id AND c.business_id = \(bind: business)
            AND c.status IN ('approved', 'refunded'))
            """
            : "NULL"
        let query: SQLQueryString = """
            SELECT u.birth_date, u.gender, u.student, s.settings, sub.ads, sub.coupons, \(lastPaid) AS paid
            FROM users u LEFT JOIN offer_settings s ON s.user_id = u.id
            LEFT JOIN offer_subscriptions sub ON sub.user_id = u.id AND sub.business_id = \(bind: business)
            WHERE u.deleted_at IS NULL AND (s.user_id IS NOT NULL OR sub.user_id IS NOT NULL)
            """
        return try await db.raw(query).all().map { row in
            let settings = try row.decode(column: "settings", as: String?.self).map {
                try Self.decode(OfferSettings.self, $0)
            }
            let ads = try row.decode(column: "ads", as: Bool?.self)
            return Prospect(
                birthDate: try row.decode(column: "birth_date", as: String?.self),
                gender: try row.decode(column: "gender", as: String?.self).flatMap(Gender.init(rawValue:)),
                student: try row.decode(column: "student", as: Bool.self),
                settings: settings ?? OfferSettings(),
                subscription: try ads.map {
                    SubscriptionRequest(ads: $0, coupons: try row.decode(column: "coupons", as: Bool.self))
                },
                lastPaid: try row.decode(column: "paid", as: Date?.self)
            )
        }
    }
}
