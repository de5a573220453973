import SQLKit

/// A student suspended from the marketplace by an upheld report (issue 24): kept beside their signature of the
/// agreement, which every marketplace gate and the feed already read. The account itself stays usable, so the student
/// can read the statement of reasons and appeal.
struct M0036_MarketSuspensions: Migration {
    let name = "MarketSuspensions"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "market_agreements").column("suspended_at", type: engine.timestamp).run()
        try await db.alter(table: "market_agreements").column("suspension_reason", type: .text).run()
    }
}
