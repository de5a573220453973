import SQLKit

/// Each side's opt-in to show where they are to the other for an accepted meetup (issue 24): from 15 minutes before it
/// until it ends or the handshake, and only their newest position, never their history.
struct M0032_MeetupSharing: Migration {
    let name = "MeetupSharing"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "market_meetups").column(
            "buyer_shares",
            type: engine.boolean,
            .notNull,
            .default(SQLLiteral.boolean(false))
        ).run()
        try await db.alter(table: "market_meetups").column(
            "seller_shares",
            type: engine.boolean,
            .notNull,
            .default(SQLLiteral.boolean(false))
        ).run()
    }
}
