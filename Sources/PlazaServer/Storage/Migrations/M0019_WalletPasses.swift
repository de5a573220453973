import SQLKit

/// Apple Wallet's pass web service (issue 22): the devices that added a card's pass and the push token each gave, so
/// a punch can tell them to fetch the pass again.
struct M0019_WalletPasses: Migration {
    let name = "WalletPasses"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "wallet_pass_registrations")
            .column("device_id", type: .text, .notNull)
            .column("pass_type_id", type: .text, .notNull)
            .column("serial", type: engine.uuid, .notNull, .references("loyalty_cards", "id", onDelete: .cascade))
            .column("push_token", type: .text, .notNull)
            .column("created_at", type: engine.timestamp, .notNull)
            .primaryKey("device_id", "pass_type_id", "serial")
            .run()
        try await db.create(index: "wallet_pass_registrations_serial").on("wallet_pass_registrations").column("serial")
            .run()
    }
}
