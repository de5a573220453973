import SQLKit

/// Staff may give several punches for one visit (issue 39): a punch row says how many it added, and what its card
/// held after it, so that the counter's list shows each punch as it was rather than the card as it stands now.
struct M0041_CounterPunchCount: Migration {
    let name = "CounterPunchCount"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "loyalty_punches").column(
            "punches",
            type: .int,
            .notNull,
            .default(SQLLiteral.numeric("1"))
        ).run()
        // Null for punches counted before this migration.
        try await db.alter(table: "loyalty_punches").column("card_punches", type: .int).run()
    }
}
