import Foundation
import HTTPTypes
import Logging
import PlazaCore
import SQLKit

/// Push notifications: a user's devices and preferences, and what the event bus's alerts become (a notification
/// queued in the transaction of the change, fanned out to each device and to mail, sent by `NotificationDelivery`).
package struct NotificationService: Sendable {
    let database: PlazaDatabase
    package let store = NotificationStore()
    let webPush: WebPush
    /// Which Web Push endpoints may be registered: those the guard would call.
    let addresses: OutboundGuard
    /// Where mail links point.
    let baseURL: String
    /// Alerts with a `Wording` go out in each recipient's language.
    let catalogue: Catalogue

    var webPushKey: WebPushKey { WebPushKey(publicKey: webPush.publicKey) }

    // MARK: Devices

    /// Signed in: registers this device for the caller's push notifications (again: the same address moves here).
    func register(
        _ identity: Identity,
        _ registration: DeviceRegistration,
        userAgent: String?,
        now: Date = Date()
    ) async throws -> Device {
        var problems = NotificationRules.registrationProblems(registration)
        let refusal =
            problems.contains { $0.field == "subscription.endpoint" }
            ? nil : registration.subscription.flatMap { addresses.refusal($0.endpoint) }
        if let refusal, problems.isEmpty {
            throw PlazaError(
                .unprocessableContent,
                .endpointNotAllowed,
                refusal,
                detail: phrase("Plaza sends only to the push services of the browsers people use."),
                errors: [FieldError(field: "subscription.endpoint", message: refusal)]
            )
        }
        if let refusal { problems.append(FieldError(field: "subscription.endpoint", message: refusal)) }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let subscription = registration.subscription
        let device = DeviceRecord(
            id: UUID(),
            userID: identity.user.id,
            platform: registration.platform,
            name: AccountService.deviceName(registration.name, userAgent: userAgent),
            // APNs tokens are hexadecimal (one spelling per device); FCM's are case-sensitive.
            address: subscription?.endpoint
                ?? (registration.platform == .fcm ? registration.token ?? "" : (registration.token ?? "").lowercased()),
            p256dh: subscription?.keys.p256dh,
            auth: subscription?.keys.auth,
            topic: registration.topic,
            createdAt: now,
            lastDeliveredAt: nil
        )
        let store = store
        return try await database.transaction { db in
            let mine = try await store.devices(of: identity.user.id, on: db)
            // The cap counts new addresses only: a device registering again on every launch is always taken.
            guard mine.count < NotificationRules.maxDevices || mine.contains(where: { $0.address == device.address })
            else {
                throw PlazaError.conflict(
                    field: nil,
                    say(
                        "You have {count} devices for notifications: remove one first.",
                        ["count": String(NotificationRules.maxDevices)]
                    )
                )
            }
            return try await store.saveDevice(device, on: db).dto
        }
    }

    func devices(_ identity: Identity) async throws -> [Device] {
        try await store.devices(of: identity.user.id, on: database.sql).map(\.dto)
    }

    /// Signed in: stops notifications to one of the caller's devices (another's is not found).
    func deleteDevice(_ identity: Identity, id: UUID) async throws {
        guard try await store.deleteDevice(id, of: identity.user.id, on: database.sql) else {
            throw PlazaError.notFound("device")
        }
    }

    // MARK: Preferences

    func preferences(_ identity: Identity) async throws -> NotificationPreferences {
        var preferences = try await store.preferences(of: identity.user.id, on: database.sql)
        preferences.timeZone = identity.user.timeZone ?? "UTC"
        return preferences
    }

    /// Whether the caller works at a business, and so is offered the `presence` push.
    func worksAtABusiness(_ identity: Identity) async throws -> Bool {
        try await store.worksAtABusiness(identity.user.id, on: database.sql)
    }

    /// Signed in: replaces the kinds given and the quiet hours (absent: none).
    func savePreferences(
        _ identity: Identity,
        _ preferences: NotificationPreferences
    ) async throws -> NotificationPreferences {
        let problems = NotificationRules.preferencesProblems(preferences)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let store = store
        try await database.transaction { db in
            try await store.savePreferences(preferences, of: identity.user.id, on: db)
        }
        return try await self.preferences(identity)
    }

    /// The account is gone: its devices, preferences and notifications too.
    func eraseUser(_ user: UUID) async throws {
        let store = store
        try await database.transaction { db in try await store.deleteAll(of: user, on: db) }
    }

    // MARK: Alerts into the outbox

    /// The bus's alert recorder: alerts become queued notifications in the publishing transaction, and each is also
    /// an arrival for the pages and apps the person has open (`notification.arrived`: a banner where they are).
    func recorder(committed: @escaping @Sendable () -> Void) -> EventBus.Recorder {
        let (store, catalogue) = (store, catalogue)
        return EventBus.Recorder(
            reacting: { messages, db in
                let worded = messages.compactMap { message -> (user: UUID, content: NotificationContent, Wording?)? in
                    if case .alert(let user, let content, let wording) = message {
                        (user, content, wording)
                    } else {
                        nil
                    }
                }
                let shown = messages.compactMap {
                    message -> (user: UUID, kind: NotificationKind, link: String, Wording)? in
                    if case .arrival(let user, let kind, let link, let wording) = message {
                        (user, kind, link, wording)
                    } else {
                        nil
                    }
                }
                guard !worded.isEmpty || !shown.isEmpty else { return (false, []) }
                // Each in its recipient's language (the operator's when they chose none).
                let chosen = try await store.languages(
                    of: Set(worded.filter { $0.2 != nil }.map(\.user) + shown.map(\.user)),
                    on: db
                )
                let alerts = worded.map { user, content, wording in
                    (
                        id: UUID(), user: user,
                        content: wording?.content(content, in: catalogue.words(chosen[user])) ?? content
                    )
                }
                let now = Date()
                if !alerts.isEmpty { try await store.enqueue(alerts, now: now, on: db) }
                let banners = shown.map { user, kind, link, wording in
                    (user: user, content: wording.content(kind: kind, link: link, in: catalogue.words(chosen[user])))
                }
                let arrivals = try (alerts.map { (user: $0.user, content: $0.content) } + banners).map {
                    FeedMessage.event(
                        audience: [$0.user],
                        event: PlazaEvent(
                            type: ArrivalEventType.arrived,
                            occurredAt: now,
                            data: try JSONValue(encoding: $0.content)
                        )
                    )
                }
                return (!alerts.isEmpty, arrivals)
            },
            committed: committed
        )
    }

    /// Fans claimed notifications out: a delivery per device whose kind has push on (held to the end of quiet hours
    /// unless urgent), and a mail where the kind has e-mail on. Returns how many notifications it fanned out.
    func fanOutWaiting(now: Date = Date(), limit: Int = 100) async throws -> Int {
        let (store, baseURL, catalogue) = (store, baseURL, catalogue)
        let waiting = try await store.claimWaiting(now: now, lease: 60, limit: limit, on: database.sql)
        for notification in waiting {
            try await database.transaction { db in
                let preferences = try await store.preferences(of: notification.userID, on: db)
                let choice = preferences.preference(notification.content.kind)
                let recipient = try await store.recipient(notification.userID, on: db)
                let devices = choice.push ? try await store.devices(of: notification.userID, on: db).map(\.id) : []
                let zone = recipient?.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
                let quietEnd =
                    notification.content.kind.urgent
                    ? nil : NotificationRules.quietUntil(preferences.quietHours, now: now, timeZone: zone)
                try await store.fanOut(notification.id, to: devices, notBefore: quietEnd ?? now, now: now, on: db)
                if choice.email, let address = recipient?.email {
                    let content = notification.content
                    let words = catalogue.words(recipient?.language)
                    let footer = words("mail.notifications.footer", ["link": "\(baseURL)/account/notifications"])
                    try await OutboxStore().enqueue(
                        OutgoingMail(
                            to: address,
                            subject: content.title,
                            text: "\(content.body)\n\n\(baseURL)\(content.link)\n\n\(footer)"
                        ),
                        on: db,
                        now: now
                    )
                }
            }
        }
        return waiting.count
    }
}
