import Foundation
import PlazaCore

/// Holders hear before their punches expire (issue 39): "3 punches expire on December 2", once per card and expiry
/// date, through the notifications outbox (so the holder's preferences and quiet hours decide when it arrives).
extension LoyaltyService {
    /// How long before a card's expiry its holder is told.
    static let expiryReminderAhead: TimeInterval = 3 * 86_400

    /// Tells the holders of cards whose punches expire within `expiryReminderAhead` (the loyalty background work calls
    /// it); answers how many were told.
    func remindExpiringPunches(now: Date = Date()) async throws -> Int {
        let (store, businesses, accounts) = (store, businesses, accounts)
        return try await events.transaction { db in
            let due = try await store.remindExpiringPunches(
                now: now,
                ahead: Self.expiryReminderAhead,
                limit: 500,
                on: db
            )
            guard !due.isEmpty else { return (0, []) }
            let names = try await businesses.store.businesses(ids: Array(Set(due.map(\.business))), on: db)
            let zones = Dictionary(
                try await accounts.users(ids: Array(Set(due.map(\.user))), on: db).map { ($0.id, $0.timeZone) },
                uniquingKeysWith: { first, _ in first }
            )
            let alerts = due.map { card in
                // The holder's day: their time zone when they set one.
                let zone = zones[card.user].flatMap { $0.flatMap(TimeZone.init(identifier:)) } ?? .gmt
                let reader = Reader(locale: Reader.standard.locale, timeZone: zone)
                let day = card.expiresAt.formatted(
                    Date.FormatStyle(locale: reader.locale, timeZone: zone).day().month(.wide)
                )
                return FeedMessage.alert(
                    user: card.user,
                    content: NotificationContent(
                        kind: .loyalty,
                        title: "\(reader.count(card.punches, "punch expires", "punches expire")) on \(day)",
                        body:
                            "Your “\(card.title)” card at \(names[card.business]?.name ?? "the shop"): visit before then to keep collecting.",
                        link: "/loyalty/cards/\(card.card.uuidString.lowercased())"
                    )
                )
            }
            return (alerts.count, alerts)
        }
    }
}
