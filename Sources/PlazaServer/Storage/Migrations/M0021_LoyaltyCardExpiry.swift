import SQLKit

/// Cards whose own life (`cardValidDays` from the first punch) runs out expire by themselves, not only when punched
/// again: the minutely sweep finds them by state and end.
struct M0021_LoyaltyCardExpiry: Migration {
    let name = "LoyaltyCardExpiry"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.create(index: "loyalty_cards_expiry").on("loyalty_cards").column("state").column("expires_at")
            .run()
    }
}
