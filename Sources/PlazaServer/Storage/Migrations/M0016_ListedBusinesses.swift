import SQLKit

/// A business is public (search, nearby, its page, presence) once its merchant is approved (issue 21); the
/// businesses of merchants already trading are.
struct M0016_ListedBusinesses: Migration {
    let name = "ListedBusinesses"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "businesses").column(
            "listed",
            type: engine.boolean,
            .notNull,
            .default(SQLLiteral.boolean(true))
        ).run()
    }
}
