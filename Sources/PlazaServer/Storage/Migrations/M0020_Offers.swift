import SQLKit

/// Offers (issue 23): businesses' campaigns (the newest content and the approved version that runs), customers'
/// offer settings and subscriptions, the offers each customer received (once per campaign) and coupon claims. Review
/// items gain the diff an admin reads and the people told of a decision.
struct M0020_Offers: Migration {
    let name = "Offers"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "campaigns")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("kind", type: .text, .notNull)
            // JSON `CampaignContent`: the newest version, and the approved one that runs (until a change is approved).
            .column("content", type: .text, .notNull)
            .column("approved", type: .text)
            .column("state", type: .text, .notNull)
            // JSON `[CampaignFinding]` of the newest version.
            .column("findings", type: .text, .notNull)
            .column("rejection_reason", type: .text)
            .column("pending_change", type: engine.boolean, .notNull)
            // The approved version's window, for the background work that starts and ends campaigns.
            .column("starts_at", type: engine.timestamp)
            .column("ends_at", type: engine.timestamp)
            .column("claimed", type: .int, .notNull)
            .column("created_by", type: engine.uuid)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "campaigns_business").on("campaigns").column("business_id").column("created_at")
            .run()
        try await db.create(index: "campaigns_state").on("campaigns").column("state").column("ends_at").run()

        try await db.create(table: "offer_settings")
            .column(
                "user_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            // JSON `OfferSettings`.
            .column("settings", type: .text, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(table: "offer_subscriptions")
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("business_id", type: engine.uuid, .notNull, .references("businesses", "id", onDelete: .cascade))
            .column("ads", type: engine.boolean, .notNull)
            .column("coupons", type: engine.boolean, .notNull)
            .column("since", type: engine.timestamp, .notNull)
            .primaryKey("user_id", "business_id")
            .run()
        try await db.create(index: "offer_subscriptions_business").on("offer_subscriptions").column("business_id").run()

        // An offer a customer received: once per campaign and customer, with why it reached them.
        try await db.create(table: "offers")
            .column("campaign_id", type: engine.uuid, .notNull, .references("campaigns", "id", onDelete: .cascade))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("business_id", type: engine.uuid, .notNull)
            .column("received_at", type: engine.timestamp, .notNull)
            // JSON `[OfferReason]`.
            .column("reasons", type: .text, .notNull)
            .column("opened_at", type: engine.timestamp)
            .column("dismissed_at", type: engine.timestamp)
            .primaryKey("campaign_id", "user_id")
            .run()
        try await db.create(index: "offers_user").on("offers").column("user_id").column("received_at").run()

        try await db.create(table: "coupon_claims")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("campaign_id", type: engine.uuid, .notNull, .references("campaigns", "id", onDelete: .cascade))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("code", type: .text, .notNull, .unique)
            .column("status", type: .text, .notNull)
            .column("expires_at", type: engine.timestamp, .notNull)
            .column("charge_id", type: engine.uuid)
            .column("discount_amount", type: .bigint)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("redeemed_at", type: engine.timestamp)
            .run()
        try await db.create(index: "coupon_claims_user").on("coupon_claims").column("user_id").column("campaign_id")
            .run()

        try await db.alter(table: "review_items").column("diff", type: .text).run()
        try await db.alter(table: "review_items").column("notify", type: .text).run()
    }
}
