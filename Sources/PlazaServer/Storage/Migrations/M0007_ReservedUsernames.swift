import SQLKit

/// Usernames no one may take although no account has them: a deleted account's (old activity must not point at a
/// stranger who took the name) and one asked for in a sign-up with an address that already had an account (had it
/// stayed free, a second sign-up with it would tell that the address was taken).
struct M0007_ReservedUsernames: Migration {
    let name = "ReservedUsernames"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(table: "reserved_usernames")
            .column("username", type: .text, .primaryKey(autoIncrement: false))
            .column("reason", type: .text, .notNull)
            .column("reserved_at", type: engine.timestamp, .notNull)
            .run()
    }
}
