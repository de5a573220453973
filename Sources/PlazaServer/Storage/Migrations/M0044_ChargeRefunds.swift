import SQLKit

/// Refunds say why (issue 39): each refund of a charge is kept with its amount and the reason the customer reads.
/// Refunds made before this keep only the charge's total refunded.
struct M0044_ChargeRefunds: Migration {
    let name = "ChargeRefunds"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "charge_refunds")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("charge_id", type: engine.uuid, .notNull, .references("charges", "id", onDelete: .cascade))
            .column("amount", type: .bigint, .notNull)
            .column("reason", type: .text)
            .column("created_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "charge_refunds_charge").on("charge_refunds").column("charge_id").run()
    }
}
