import SQLKit

/// A counter that works like a point of sale (issue 39): a charge keeps the tip it carries, and a business keeps the
/// tips it suggests and the tax registration and rate its receipts print.
struct M0045_PointOfSale: Migration {
    let name = "PointOfSale"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "charges").column("tip", type: .bigint, .notNull, .default(SQLLiteral.numeric("0")))
            .run()
        // "10,15,20": the percentages the counter offers; null or empty for none.
        try await db.alter(table: "businesses").column("tip_percents", type: .text).run()
        try await db.alter(table: "businesses").column("tax_id", type: .text).run()
        // Basis points (1900 for 19 %): whole numbers keep the receipt's arithmetic exact.
        try await db.alter(table: "businesses").column("tax_rate_bp", type: .int).run()
    }
}
