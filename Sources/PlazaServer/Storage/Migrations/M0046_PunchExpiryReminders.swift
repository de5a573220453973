import SQLKit

/// Holders hear before their punches expire (issue 39): the expiry each card's holder was last told of, so that each
/// card is reminded once per expiry date (a card whose expiry moves is reminded of the new date).
struct M0046_PunchExpiryReminders: Migration {
    let name = "PunchExpiryReminders"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "loyalty_cards").column("expiry_reminded_for", type: engine.timestamp).run()
    }
}
