import Foundation
import PlazaCore
import SQLKit

/// Staff's "when a customer you know walks in" push (`presence`, off until a staff member turns it on): the bus's
/// `presence.entered` events, which Places sends only for customers who share their location with businesses, become
/// alerts for the staff in the event's audience who chose it, when the customer is known there (see
/// `NotificationStore.knownCustomer`), at most once per customer and business in `presenceRepeatWindow` and
/// `presencePerHour` an hour. Places knows nothing of it: this recorder only hears what Places published.
struct PresencePush: Sendable {
    let store = NotificationStore()

    var recorder: EventBus.Recorder {
        EventBus.Recorder(reacting: { messages, db in (false, try await alerts(for: messages, now: Date(), on: db)) })
    }

    /// The alerts that follow from the arrivals among `messages` (written by the notifications recorder in turn).
    func alerts(for messages: [FeedMessage], now: Date, on db: any SQLDatabase) async throws -> [FeedMessage] {
        var alerts: [FeedMessage] = []
        for case .event(let audience, let event) in messages where event.type == PlazaEventType.presenceEntered {
            guard let change = try? event.data.decode(as: PresenceChange.self) else { continue }
            let listeners = try await store.presenceListeners(among: audience, on: db)
            guard !listeners.isEmpty,
                let customer = try await store.knownCustomer(
                    username: change.username,
                    business: change.businessId,
                    on: db
                )
            else { continue }
            let place = try await store.businessName(change.businessId, on: db)
            // Each staff member reads it in their language (a business whose name is not found: "your business").
            let wording = Wording(
                title: phrase("{name} just walked in"),
                body: place == nil
                    ? phrase("A customer you know is at your business now.")
                    : phrase("A customer you know is at {place} now."),
                values: ["name": NotificationRules.shortName(change.displayName), "place": place ?? ""]
            )
            let link = "/businesses/\(change.businessId.uuidString.lowercased())/presence"
            for staff in listeners where staff != customer {
                guard
                    try await store.claimPresenceAlert(
                        staff: staff,
                        business: change.businessId,
                        customer: customer,
                        now: now,
                        on: db
                    )
                else { continue }
                alerts.append(.alert(user: staff, kind: .presence, link: link, wording))
            }
        }
        return alerts
    }
}
