import SQLKit

/// A processor's hosted page takes the card (Stripe Checkout): a pending top-up keeps the page's address so that a
/// client that lost the answer can still send the customer there; withdrawals go to the payout account the user
/// connected with the processor (issue 18).
struct M0010_HostedPayments: Migration {
    let name = "HostedPayments"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        // Both tables share one row type (withdrawals keep it null), as with `business_id`.
        for table in ["top_ups", "withdrawals"] {
            try await db.alter(table: table).column("checkout_url", type: .text).run()
        }
        try await db.create(table: "payout_accounts")
            .column("user_id", type: engine.uuid, .primaryKey(autoIncrement: false), .references("users", "id"))
            .column("account_id", type: .text, .notNull, .unique)
            .column("ready", type: engine.boolean, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
    }
}
