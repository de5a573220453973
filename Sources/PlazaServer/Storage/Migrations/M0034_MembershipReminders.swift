import SQLKit

/// When a student was last reminded that their campus verification runs out (issue 24), so that each is told once.
struct M0034_MembershipReminders: Migration {
    let name = "MembershipReminders"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "campus_members").column("reminded_at", type: engine.timestamp).run()
        try await db.create(index: "campus_members_until").on("campus_members").column("verified_until").run()
    }
}
