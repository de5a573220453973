import Foundation
import PlazaCore
import SQLKit

/// A row of `campaigns`: the newest content, and the approved version that runs until a change is approved.
struct CampaignRecord: Sendable {
    var id: UUID
    var businessId: UUID
    var content: CampaignContent
    var approved: CampaignContent?
    var state: CampaignState
    var findings: [CampaignFinding]
    var rejectionReason: String?
    var pendingChange: Bool
    var claimed: Int
    var createdBy: UUID?
    var createdAt: Date
    var updatedAt: Date
    /// An admin stopped it (issue 40): why, and when.
    var stopReason: String? = nil
    var stoppedAt: Date? = nil

    func dto(businessName: String) -> Campaign {
        Campaign(
            id: id,
            businessId: businessId,
            businessName: businessName,
            content: content,
            state: state,
            findings: findings,
            rejectionReason: rejectionReason,
            pendingChange: pendingChange,
            claimed: claimed,
            createdAt: createdAt,
            updatedAt: updatedAt,
            stopReason: stopReason,
            stoppedAt: stoppedAt
        )
    }

    /// The version customers see: the approved one (a campaign runs only once approved).
    var running: CampaignContent { approved ?? content }
}

/// All SQL of offers: campaigns, customers' offer settings and subscriptions.
struct OffersStore: Sendable {
    static let campaignColumnNames = [
        "id", "business_id", "content", "approved", "state", "findings", "rejection_reason", "pending_change",
        "claimed", "created_by",
        "created_at", "updated_at", "stop_reason", "stopped_at",
    ]

    // MARK: Campaigns

    func insert(_ record: CampaignRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "campaigns")
            .columns(Self.campaignColumnNames + ["kind", "starts_at", "ends_at"])
            .values(
                try Self.values(record) + [
                    SQLBind(record.content.kind.rawValue), SQLBind(nil as Date?), SQLBind(nil as Date?),
                ]
            )
            .run()
    }

    func update(_ record: CampaignRecord, on db: any SQLDatabase) async throws {
        let values = try Self.values(record)
        var update = db.update("campaigns")
        for (column, value) in zip(Self.campaignColumnNames, values).dropFirst(2)
        where column != "created_by" && column != "created_at" {
            update = update.set(SQLIdentifier(column), to: value)
        }
        try await update.set("starts_at", to: record.approved?.startsAt).set("ends_at", to: record.approved?.endsAt)
            .where("id", .equal, record.id).run()
    }

    func campaign(_ id: UUID, forUpdate: Bool = false, on db: any SQLDatabase) async throws -> CampaignRecord? {
        var select = db.select().columns(Self.campaignColumnNames.map { SQLIdentifier($0) }).from("campaigns").where(
            "id",
            .equal,
            id
        )
        if forUpdate { select = select.for(.update) }
        return try await select.first().map(Self.campaign)
    }

    /// The business's campaigns, newest first, after the cursor row `after`.
    func campaigns(business: UUID, limit: Int, after: UUID?, on db: any SQLDatabase) async throws -> [CampaignRecord] {
        try await db.select().columns(Self.campaignColumnNames.map { SQLIdentifier($0) }).from("campaigns").where(
            "business_id",
            .equal,
            business
        )
        .newestFirst(after: after, in: "campaigns", by: "created_at").limit(limit).all().map(Self.campaign)
    }

    /// The business's other coupons that are submitted or approved and not ended: what a new coupon could stack with.
    func liveCoupons(business: UUID, except: UUID, on db: any SQLDatabase) async throws -> [CampaignRecord] {
        try await db.select().columns(Self.campaignColumnNames.map { SQLIdentifier($0) }).from("campaigns").where(
            "business_id",
            .equal,
            business
        )
        .where("kind", .equal, CampaignKind.coupon.rawValue).where("id", .notEqual, except)
        .where("state", .in, [CampaignState.submitted, .approved, .active, .paused].map(\.rawValue)).all().map(
            Self.campaign
        )
    }

    /// Approved campaigns whose start has come (they become active) and running ones whose end has (they end).
    func dueCampaigns(now: Date, on db: any SQLDatabase) async throws -> [UUID] {
        try await db.select().column("id").from("campaigns")
            .where {
                $0.where("state", .equal, CampaignState.approved.rawValue).where("starts_at", .lessThanOrEqual, now)
            }
            .orWhere {
                $0.where("state", .in, [CampaignState.approved, .active, .paused].map(\.rawValue)).where(
                    "ends_at",
                    .lessThanOrEqual,
                    now
                )
            }
            .all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    private static func values(_ record: CampaignRecord) throws -> [any SQLExpression] {
        [
            SQLBind(record.id), SQLBind(record.businessId), SQLBind(try json(record.content)),
            SQLBind(try record.approved.map(json)),
            SQLBind(record.state.rawValue), SQLBind(try json(record.findings)), SQLBind(record.rejectionReason),
            SQLBind(record.pendingChange),
            SQLBind(record.claimed), SQLBind(record.createdBy), SQLBind(record.createdAt), SQLBind(record.updatedAt),
            SQLBind(record.stopReason), SQLBind(record.stoppedAt),
        ]
    }

    static func campaign(_ row: any SQLRow) throws -> CampaignRecord {
        CampaignRecord(
            id: try row.decode(column: "id", as: UUID.self),
            businessId: try row.decode(column: "business_id", as: UUID.self),
            content: try decode(CampaignContent.self, try row.decode(column: "content", as: String.self)),
            approved: try row.decode(column: "approved", as: String?.self).map { try decode(CampaignContent.self, $0) },
            state: CampaignState(rawValue: try row.decode(column: "state", as: String.self)) ?? .draft,
            findings: try decode([CampaignFinding].self, try row.decode(column: "findings", as: String.self)),
            rejectionReason: try row.decode(column: "rejection_reason", as: String?.self),
            pendingChange: try row.decode(column: "pending_change", as: Bool.self),
            claimed: try row.decode(column: "claimed", as: Int.self),
            createdBy: try row.decode(column: "created_by", as: UUID?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self),
            stopReason: try row.decode(column: "stop_reason", as: String?.self),
            stoppedAt: try row.decode(column: "stopped_at", as: Date?.self)
        )
    }

    // MARK: Settings and subscriptions

    func settings(user: UUID, on db: any SQLDatabase) async throws -> OfferSettings? {
        try await db.select().column("settings").from("offer_settings").where("user_id", .equal, user).first()
            .map { try Self.decode(OfferSettings.self, try $0.decode(column: "settings", as: String.self)) }
    }

    func saveSettings(_ settings: OfferSettings, user: UUID, now: Date, on db: any SQLDatabase) async throws {
        try await db.insert(into: "offer_settings").columns("user_id", "settings", "updated_at")
            .values(SQLBind(user), SQLBind(try Self.json(settings)), SQLBind(now))
            .onConflict(with: ["user_id"]) { $0.set(excludedValueOf: "settings").set(excludedValueOf: "updated_at") }
            .run()
    }

    /// Subscribes (or changes what the subscription covers, keeping its `since`); answers the row.
    func subscribe(
        user: UUID,
        business: UUID,
        _ request: SubscriptionRequest,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Date {
        try await db.insert(into: "offer_subscriptions").columns("user_id", "business_id", "ads", "coupons", "since")
            .values(SQLBind(user), SQLBind(business), SQLBind(request.ads), SQLBind(request.coupons), SQLBind(now))
            .onConflict(with: ["user_id", "business_id"]) {
                $0.set(excludedValueOf: "ads").set(excludedValueOf: "coupons")
            }
            .returning("since").first()?.decode(column: "since", as: Date.self) ?? now
    }

    func unsubscribe(user: UUID, business: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "offer_subscriptions").where("user_id", .equal, user).where(
            "business_id",
            .equal,
            business
        ).run()
    }

    /// The user's subscriptions, newest first, after the business `after`.
    func subscriptions(
        user: UUID,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [(business: UUID, SubscriptionRequest, Date)] {
        var select = db.select().columns("business_id", "ads", "coupons", "since").from("offer_subscriptions").where(
            "user_id",
            .equal,
            user
        )
        if let after {
            let since = SQLQueryString(
                "(SELECT since FROM offer_subscriptions WHERE user_id = \(bind: user) AND business_id = \(bind: after))"
            )
            select = select.where {
                $0.where(SQLColumn("since"), .lessThan, since).orWhere {
                    $0.where(SQLColumn("since"), .equal, since).where("business_id", .lessThan, after)
                }
            }
        }
        return try await select.orderBy("since", .descending).orderBy("business_id", .descending).limit(limit).all().map
        { row in
            (
                try row.decode(column: "business_id", as: UUID.self),
                SubscriptionRequest(
                    ads: try row.decode(column: "ads", as: Bool.self),
                    coupons: try row.decode(column: "coupons", as: Bool.self)
                ),
                try row.decode(column: "since", as: Date.self)
            )
        }
    }

    // MARK: JSON columns

    static func json(_ value: some Encodable) throws -> String { try PlazaJSON.text(value) }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try PlazaJSON.value(T.self, from: text)
    }
}
