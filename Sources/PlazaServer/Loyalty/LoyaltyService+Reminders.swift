import Foundation
import PlazaCore

/// Holders hear before their punches expire (issue 39): "Your punches at Bruno's Café expire soon", once per card and
/// expiry date, through the notifications outbox (so the holder's preferences and quiet hours decide when it arrives).
extension LoyaltyService {
    /// How long before a card's expiry its holder is told.
    static let expiryReminderAhead: TimeInterval = 3 * 86_400

    /// Tells the holders of cards whose punches expire within `expiryReminderAhead` (the loyalty background work calls
    /// it); answers how many were told.
    func remindExpiringPunches(now: Date = Date()) async throws -> Int {
        let (store, businesses) = (store, businesses)
        return try await events.transaction { db in
            let due = try await store.remindExpiringPunches(
                now: now,
                ahead: Self.expiryReminderAhead,
                limit: 500,
                on: db
            )
            guard !due.isEmpty else { return (0, []) }
            let names = try await businesses.store.businesses(ids: Array(Set(due.map(\.business))), on: db)
            let alerts = due.map { card in
                // No day in the words: the card's page the alert opens shows when its punches expire, in the
                // holder's time zone. The punches' count picks the body's plural form in the holder's language.
                let name = names[card.business]?.name
                return FeedMessage.alert(
                    user: card.user,
                    kind: .loyalty,
                    link: "/loyalty/cards/\(card.card.uuidString.lowercased())",
                    Wording(
                        key: name == nil ? "alert.loyalty.reminder_unnamed" : "alert.loyalty.reminder",
                        values: ["business": name ?? "", "card": card.title],
                        count: card.punches
                    )
                )
            }
            return (alerts.count, alerts)
        }
    }
}
