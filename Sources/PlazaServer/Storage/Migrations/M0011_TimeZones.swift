import SQLKit

/// The time zone a user chose for the dates pages show (issue 20); without one, the browser's.
struct M0011_TimeZones: Migration {
    let name = "TimeZones"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "users").column("time_zone", type: .text).run()
    }
}
