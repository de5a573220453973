import Foundation
import PlazaCore
import SQLKit

/// An offer a customer received, with the campaign it came from.
struct ReceivedOffer: Sendable {
    var campaign: CampaignRecord
    var receivedAt: Date
    var reasons: [OfferReason]
    var openedAt: Date?
}

/// A row of `coupon_claims`.
struct ClaimRecord: Sendable {
    var id: UUID
    var campaignId: UUID
    var userId: UUID
    var code: String
    var status: CouponClaimStatus
    var expiresAt: Date
    var chargeId: UUID?
    var discountAmount: Int64?
    var createdAt: Date

    var dto: CouponClaim {
        CouponClaim(id: id, offerId: campaignId, code: code, status: status, expiresAt: expiresAt, chargeId: chargeId)
    }
}

/// The customer's side of offers: what they received, opened, dismissed and claimed.
extension OffersStore {
    /// The customer's offers, newest first, after the campaign `after`: `history` are those of ended campaigns or
    /// redeemed, the rest are current. Dismissed offers are in neither.
    func offers(
        user: UUID,
        history: Bool,
        search: (text: String?, category: BusinessCategory?),
        now: Date,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws
        -> [ReceivedOffer]
    {
        var select = Self.received(by: user, on: db)
        let used = SQLQueryString(
            "EXISTS (SELECT 1 FROM coupon_claims k WHERE k.campaign_id = offers.campaign_id AND k.user_id = offers.user_id AND k.status = 'redeemed')"
        )
        let over = SQLQueryString("(campaigns.state = 'ended' OR campaigns.ends_at <= \(bind: now) OR \(used))")
        select = select.where(history ? over : SQLQueryString("NOT \(over)"))
        if search.text != nil || search.category != nil {
            // By the business: its folded name and description (as places search reads them) and its category.
            var business = SQLQueryString("EXISTS (SELECT 1 FROM businesses b WHERE b.id = offers.business_id")
            if let text = search.text, !text.isEmpty {
                let pattern = LikePattern.containing(PlacesRules.searchFolded(text))
                business = business + SQLQueryString(" AND b.search_text LIKE \(bind: pattern) ESCAPE '\\'")
            }
            if let category = search.category {
                business = business + SQLQueryString(" AND b.category = \(bind: category.rawValue)")
            }
            select = select.where(business + SQLQueryString(")"))
        }
        if let after {
            let stored = SQLQueryString(
                "(SELECT received_at FROM offers WHERE user_id = \(bind: user) AND campaign_id = \(bind: after))"
            )
            select = select.where {
                $0.where(SQLColumn("received_at", table: "offers"), .lessThan, stored).orWhere {
                    $0.where(SQLColumn("received_at", table: "offers"), .equal, stored).where(
                        SQLColumn("campaign_id", table: "offers"),
                        .lessThan,
                        SQLBind(after)
                    )
                }
            }
        }
        let rows = try await select.orderBy(
            SQLOrderBy(expression: SQLColumn("received_at", table: "offers"), direction: SQLDirection.descending)
        )
        .orderBy(SQLOrderBy(expression: SQLColumn("campaign_id", table: "offers"), direction: SQLDirection.descending))
        .limit(limit).all()
        return try rows.map(Self.received)
    }

    /// One offer the customer received and did not dismiss.
    func offer(_ campaign: UUID, user: UUID, on db: any SQLDatabase) async throws -> ReceivedOffer? {
        try await Self.received(by: user, on: db).where(
            SQLColumn("campaign_id", table: "offers"),
            .equal,
            SQLBind(campaign)
        ).first()
            .map(Self.received)
    }

    /// The offers `user` received and did not dismiss, each with its campaign's row.
    private static func received(by user: UUID, on db: any SQLDatabase) -> SQLSelectBuilder {
        db.select().columns(campaignColumnNames.map { SQLColumn($0, table: "campaigns") })
            .columns(
                SQLColumn("received_at", table: "offers"),
                SQLColumn("reasons", table: "offers"),
                SQLColumn("opened_at", table: "offers")
            )
            .from("offers").join(
                "campaigns",
                on: SQLColumn("campaign_id", table: "offers"),
                .equal,
                SQLColumn("id", table: "campaigns")
            )
            .where(SQLColumn("user_id", table: "offers"), .equal, SQLBind(user)).where(
                SQLColumn("dismissed_at", table: "offers"),
                .is,
                SQLLiteral.null
            )
    }

    /// Marks the offer opened the first time; answers whether this was the first time.
    func markOpened(_ campaign: UUID, user: UUID, at: Date, on db: any SQLDatabase) async throws {
        try await db.update("offers").set("opened_at", to: at).where("campaign_id", .equal, campaign).where(
            "user_id",
            .equal,
            user
        )
        .where("opened_at", .is, SQLLiteral.null).run()
    }

    /// Dismisses the offer for good (the row stays, so that it never comes again).
    func dismiss(_ campaign: UUID, user: UUID, at: Date, on db: any SQLDatabase) async throws {
        try await db.update("offers").set("dismissed_at", to: at).where("campaign_id", .equal, campaign).where(
            "user_id",
            .equal,
            user
        )
        .where("dismissed_at", .is, SQLLiteral.null).run()
    }

    /// Everything the campaign's statistics count: its deliveries and its claims.
    func statsFacts(campaign: UUID, on db: any SQLDatabase) async throws -> CampaignStatsRules.Facts {
        let deliveries = try await db.select().columns("received_at", "opened_at").from("offers").where(
            "campaign_id",
            .equal,
            campaign
        ).all().map {
            (
                at: try $0.decode(column: "received_at", as: Date.self),
                openedAt: try $0.decode(column: "opened_at", as: Date?.self)
            )
        }
        let claims = try await db.select().columns("created_at", "redeemed_at", "discount_amount").from("coupon_claims")
            .where("campaign_id", .equal, campaign).all().map {
                (
                    at: try $0.decode(column: "created_at", as: Date.self),
                    redeemedAt: try $0.decode(column: "redeemed_at", as: Date?.self),
                    discount: try $0.decode(column: "discount_amount", as: Int64?.self)
                )
            }
        return CampaignStatsRules.Facts(deliveries: deliveries, claims: claims)
    }

    private static func received(_ row: any SQLRow) throws -> ReceivedOffer {
        ReceivedOffer(
            campaign: try campaign(row),
            receivedAt: try row.decode(column: "received_at", as: Date.self),
            reasons: try decode([OfferReason].self, try row.decode(column: "reasons", as: String.self)),
            openedAt: try row.decode(column: "opened_at", as: Date?.self)
        )
    }

    // MARK: Claims

    private static let claimColumns = [
        "id", "campaign_id", "user_id", "code", "status", "expires_at", "charge_id", "discount_amount", "created_at",
    ]

    /// The customer's claims of these campaigns, newest first.
    func claims(user: UUID, campaigns: [UUID], on db: any SQLDatabase) async throws -> [ClaimRecord] {
        guard !campaigns.isEmpty else { return [] }
        return try await db.select().columns(Self.claimColumns.map { SQLIdentifier($0) }).from("coupon_claims").where(
            "user_id",
            .equal,
            user
        )
        .where("campaign_id", .in, SQLBind.group(campaigns)).orderBy("created_at", .descending).all().map(Self.claim)
    }

    /// A claimed coupon a charge could take.
    struct UsableClaim {
        var claim: UUID
        var campaign: UUID
        var content: CampaignContent
        var expiresAt: Date
    }

    /// The customer's unused claims, free of any charge and not expired, of running campaigns of `business`.
    func usableClaims(user: UUID, business: UUID, now: Date, on db: any SQLDatabase) async throws -> [UsableClaim] {
        let rows = try await db.select().column(SQLColumn("id", table: "coupon_claims"), as: "claim_id")
            .column(SQLColumn("campaign_id", table: "coupon_claims"))
            .column(SQLColumn("expires_at", table: "coupon_claims"))
            .column(SQLColumn("approved", table: "campaigns")).column(SQLColumn("content", table: "campaigns")).from(
                "coupon_claims"
            )
            .join(
                "campaigns",
                on: SQLColumn("campaign_id", table: "coupon_claims"),
                .equal,
                SQLColumn("id", table: "campaigns")
            )
            .where(SQLColumn("user_id", table: "coupon_claims"), .equal, SQLBind(user))
            .where(SQLColumn("status", table: "coupon_claims"), .equal, SQLBind(CouponClaimStatus.claimed.rawValue))
            .where(SQLColumn("charge_id", table: "coupon_claims"), .is, SQLLiteral.null)
            .where(SQLColumn("expires_at", table: "coupon_claims"), .greaterThan, SQLBind(now))
            .where(SQLColumn("business_id", table: "campaigns"), .equal, SQLBind(business))
            .where(
                SQLColumn("state", table: "campaigns"),
                .in,
                SQLBind.group([CampaignState.active.rawValue, CampaignState.paused.rawValue])
            )
            .all()
        return try rows.map { row in
            let text =
                try row.decode(column: "approved", as: String?.self) ?? row.decode(column: "content", as: String.self)
            return UsableClaim(
                claim: try row.decode(column: "claim_id", as: UUID.self),
                campaign: try row.decode(column: "campaign_id", as: UUID.self),
                content: try Self.decode(CampaignContent.self, text),
                expiresAt: try row.decode(column: "expires_at", as: Date.self)
            )
        }
    }

    /// The offers of `business` the customer received and did not dismiss, of campaigns running or paused.
    func receivedCoupons(user: UUID, business: UUID, on db: any SQLDatabase) async throws -> [ReceivedOffer] {
        try await Self.received(by: user, on: db)
            .where(SQLColumn("business_id", table: "campaigns"), .equal, SQLBind(business))
            .where(
                SQLColumn("state", table: "campaigns"),
                .in,
                SQLBind.group([CampaignState.active.rawValue, CampaignState.paused.rawValue])
            )
            .all().map(Self.received)
    }

    /// Takes one of the campaign's `total` claims; false when none is left. One statement, so it holds under concurrency.
    func takeClaim(campaign: UUID, total: Int?, on db: any SQLDatabase) async throws -> Bool {
        var update = db.update("campaigns").set(
            "claimed",
            to: SQLBinaryExpression(SQLColumn("claimed"), .add, SQLLiteral.numeric("1"))
        )
        .where("id", .equal, campaign)
        if let total { update = update.where("claimed", .lessThan, total) }
        return !(try await update.returning("claimed").all().isEmpty)
    }

    /// The claim with this code (as the counter types it), locked for the charge that names it.
    func claim(code: String, on db: any SQLDatabase) async throws -> ClaimRecord? {
        try await db.select().columns(Self.claimColumns.map { SQLIdentifier($0) }).from("coupon_claims").where(
            "code",
            .equal,
            code
        )
        .for(.update).first().map(Self.claim)
    }

    func claim(id: UUID, on db: any SQLDatabase) async throws -> ClaimRecord? {
        try await db.select().columns(Self.claimColumns.map { SQLIdentifier($0) }).from("coupon_claims").where(
            "id",
            .equal,
            id
        )
        .for(.update).first().map(Self.claim)
    }

    /// Holds an unused claim for a charge; false when another charge took it first.
    func hold(_ claim: UUID, charge: UUID, discount: Int64, on db: any SQLDatabase) async throws -> Bool {
        try await !db.update("coupon_claims").set("charge_id", to: charge).set("discount_amount", to: discount).where(
            "id",
            .equal,
            claim
        )
        .where("status", .equal, CouponClaimStatus.claimed.rawValue).where("charge_id", .is, SQLLiteral.null).returning(
            "id"
        ).all().isEmpty
    }

    /// The charge holding a claim was paid (redeemed) or ended unpaid (the claim is free for another charge).
    func settle(charge: UUID, paid: Bool, now: Date, on db: any SQLDatabase) async throws {
        let held = db.update("coupon_claims").where("charge_id", .equal, charge).where(
            "status",
            .equal,
            CouponClaimStatus.claimed.rawValue
        )
        if paid {
            try await held.set("status", to: CouponClaimStatus.redeemed.rawValue).set("redeemed_at", to: now).run()
        } else {
            try await held.set("charge_id", to: nil as UUID?).set("discount_amount", to: nil as Int64?).run()
        }
    }

    func insert(_ claim: ClaimRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "coupon_claims").columns(Self.claimColumns)
            .values(
                SQLBind(claim.id),
                SQLBind(claim.campaignId),
                SQLBind(claim.userId),
                SQLBind(claim.code),
                SQLBind(claim.status.rawValue),
                SQLBind(claim.expiresAt),
                SQLBind(claim.chargeId),
                SQLBind(claim.discountAmount),
                SQLBind(claim.createdAt)
            ).run()
    }

    private static func claim(_ row: any SQLRow) throws -> ClaimRecord {
        ClaimRecord(
            id: try row.decode(column: "id", as: UUID.self),
            campaignId: try row.decode(column: "campaign_id", as: UUID.self),
            userId: try row.decode(column: "user_id", as: UUID.self),
            code: try row.decode(column: "code", as: String.self),
            status: CouponClaimStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .expired,
            expiresAt: try row.decode(column: "expires_at", as: Date.self),
            chargeId: try row.decode(column: "charge_id", as: UUID?.self),
            discountAmount: try row.decode(column: "discount_amount", as: Int64?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }
}
