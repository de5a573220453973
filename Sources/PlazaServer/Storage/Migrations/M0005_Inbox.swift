import SQLKit

/// Inbox: each user's "seen up to" mark; entries themselves are read from charges and wallet activity (see `InboxStore`),
/// so nothing is written twice and a transfer costs no extra statement.
struct M0005_Inbox: Migration {
    let name = "Inbox"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "inbox_marks")
            .column(
                "owner_id",
                type: engine.uuid,
                .primaryKey(autoIncrement: false),
                .references("users", "id", onDelete: .cascade)
            )
            .column("seen_until", type: engine.timestamp, .notNull)
            .run()
        // The inbox reads a customer's charges and a merchant's answered ones newest first.
        try await db.create(index: "charges_customer_time").on("charges").column("customer_id").column("created_at")
            .run()
        try await db.create(index: "charges_creator_decided").on("charges").column("created_by").column("decided_at")
            .run()
    }
}
