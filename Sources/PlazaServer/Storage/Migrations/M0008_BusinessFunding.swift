import SQLKit

/// A business's owner pays its balance out to the bank like a customer does (a withdrawal with `business_id`): a
/// business with money in it could otherwise never be closed without stranding the money (issue 18).
struct M0008_BusinessFunding: Migration {
    let name = "BusinessFunding"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        for table in ["top_ups", "withdrawals"] {
            try await db.alter(table: table).column("business_id", type: engine.uuid).run()
        }
    }
}
