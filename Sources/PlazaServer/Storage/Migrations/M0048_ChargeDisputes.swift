import SQLKit

/// Payment disputes (issue 39, trust at the till): a customer reports a problem with a paid charge, the business
/// answers (or refunds), and Plaza's admins decide the ones the customer asks them to. One dispute per charge.
struct M0048_ChargeDisputes: Migration {
    let name = "ChargeDisputes"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "charge_disputes")
            .column("id", type: engine.uuid, .primaryKey(autoIncrement: false))
            .column("charge_id", type: engine.uuid, .notNull, .unique, .references("charges", "id", onDelete: .cascade))
            .column("business_id", type: engine.uuid, .notNull)
            .column("customer_id", type: engine.uuid, .notNull)
            .column("reason", type: .text, .notNull)
            .column("details", type: .text, .notNull)
            .column("state", type: .text, .notNull)
            .column("answer", type: .text)
            .column("answered_at", type: engine.timestamp)
            .column("refund_amount", type: .bigint)
            .column("decision", type: .text)
            .column("decided_at", type: engine.timestamp)
            .column("created_at", type: engine.timestamp, .notNull)
            .column("updated_at", type: engine.timestamp, .notNull)
            .run()
        try await db.create(index: "charge_disputes_business").on("charge_disputes").column("business_id")
            .column("created_at").run()
        try await db.create(index: "charge_disputes_customer").on("charge_disputes").column("customer_id")
            .column("created_at").run()
    }
}
