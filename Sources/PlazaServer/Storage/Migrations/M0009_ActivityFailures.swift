import SQLKit

/// A failed top-up or withdrawal keeps the processor's reason in the history ("card declined"), so it never reads
/// as money that arrived (issue 18).
struct M0009_ActivityFailures: Migration {
    let name = "ActivityFailures"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "wallet_activity").column("failure_code", type: .text).run()
    }
}
