import SQLKit

/// Offers an admin can stop and a customer can report (issue 40): a campaign's stop (its reason the business reads),
/// and customers' reports of an offer, one per person and campaign, gathered by one open review item.
struct M0051_OfferReports: Migration {
    let name = "OfferReports"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "campaigns").column("stop_reason", type: .text).run()
        try await db.alter(table: "campaigns").column("stopped_at", type: engine.timestamp).run()
        try await db.create(table: "offer_reports")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("campaign_id", type: engine.uuid, .notNull, .references("campaigns", "id", onDelete: .cascade))
            .column("user_id", type: engine.uuid, .notNull, .references("users", "id", onDelete: .cascade))
            .column("reason", type: .text, .notNull)
            .column("details", type: .text)
            .column("state", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            // One report per person and campaign; its index also finds a campaign's reports.
            .unique("campaign_id", "user_id")
            .run()
    }
}
