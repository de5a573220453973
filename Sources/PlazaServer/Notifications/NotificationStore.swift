import Foundation
import PlazaCore
import SQLKit

/// A push device as stored: the address it is reached at and, for Web Push, the subscription's keys.
package struct DeviceRecord: Sendable {
    var id: UUID
    var userID: UUID
    var platform: DevicePlatform
    var name: String
    /// The Web Push endpoint, the APNs device token, or the FCM registration token.
    var address: String
    var p256dh: String?
    var auth: String?
    var topic: String?
    var createdAt: Date
    var lastDeliveredAt: Date?

    package init(
        id: UUID,
        userID: UUID,
        platform: DevicePlatform,
        name: String,
        address: String,
        p256dh: String?,
        auth: String?,
        topic: String?,
        createdAt: Date,
        lastDeliveredAt: Date?
    ) {
        self.id = id
        self.userID = userID
        self.platform = platform
        self.name = name
        self.address = address
        self.p256dh = p256dh
        self.auth = auth
        self.topic = topic
        self.createdAt = createdAt
        self.lastDeliveredAt = lastDeliveredAt
    }

    var dto: Device {
        let service =
            switch platform {
            case .apns: "api.push.apple.com"
            case .fcm: "fcm.googleapis.com"
            case .webpush: URL(string: address)?.host ?? "unknown"
            }
        return Device(
            id: id,
            platform: platform,
            name: name,
            service: service,
            createdAt: createdAt,
            lastDeliveredAt: lastDeliveredAt
        )
    }
}

/// All SQL of notifications: devices, preferences, and the outbox (`notifications` fanned out into `push_deliveries`).
package struct NotificationStore: Sendable {
    // MARK: Devices

    /// Stores `device` and returns it as kept: the caller's own address registered again keeps its id (its keys and
    /// name refreshed); an address another account had (the phone changed hands) moves here, so one address reaches
    /// one person.
    package func saveDevice(_ device: DeviceRecord, on db: any SQLDatabase) async throws -> DeviceRecord {
        if let row = try await db.select().columns(Self.deviceColumns).from("push_devices").where(
            "address",
            .equal,
            device.address
        ).first() {
            var existing = try Self.device(row)
            if existing.userID == device.userID {
                try await db.update("push_devices").set("name", to: device.name).set("p256dh", to: device.p256dh).set(
                    "auth",
                    to: device.auth
                )
                .set("topic", to: device.topic).where("id", .equal, existing.id).run()
                (existing.name, existing.p256dh, existing.auth, existing.topic) = (
                    device.name, device.p256dh, device.auth, device.topic
                )
                return existing
            }
            try await forgetDevice(existing.id, on: db)
        }
        try await db.insert(into: "push_devices")
            .columns("id", "user_id", "platform", "name", "address", "p256dh", "auth", "topic", "created_at")
            .values(
                SQLBind(device.id),
                SQLBind(device.userID),
                SQLBind(device.platform.rawValue),
                SQLBind(device.name),
                SQLBind(device.address),
                SQLBind(device.p256dh),
                SQLBind(device.auth),
                SQLBind(device.topic),
                SQLBind(device.createdAt)
            )
            .run()
        return device
    }

    func devices(of user: UUID, on db: any SQLDatabase) async throws -> [DeviceRecord] {
        try await db.select().columns(Self.deviceColumns).from("push_devices").where("user_id", .equal, user).orderBy(
            "created_at"
        )
        .all().map(Self.device)
    }

    /// Removes the user's device; false when they have none with that id.
    func deleteDevice(_ id: UUID, of user: UUID, on db: any SQLDatabase) async throws -> Bool {
        try await db.delete(from: "push_devices").where("id", .equal, id).where("user_id", .equal, user).returning("id")
            .first() != nil
    }

    /// The push service said the subscription is gone (404, 410): the device goes, with its pending deliveries.
    func forgetDevice(_ id: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "push_deliveries").where("device_id", .equal, id).run()
        try await db.delete(from: "push_devices").where("id", .equal, id).run()
    }

    func deleteAll(of user: UUID, on db: any SQLDatabase) async throws {
        try await db.delete(from: "notifications").where("user_id", .equal, user).run()
        try await db.delete(from: "push_devices").where("user_id", .equal, user).run()
        try await db.delete(from: "notification_preferences").where("user_id", .equal, user).run()
        try await db.delete(from: "notification_quiet_hours").where("user_id", .equal, user).run()
        try await db.delete(from: "presence_alerts").where("staff_id", .equal, user).run()
        try await db.delete(from: "presence_alerts").where("customer_id", .equal, user).run()
    }

    static let deviceColumns = [
        "id", "user_id", "platform", "name", "address", "p256dh", "auth", "topic", "created_at", "last_delivered_at",
    ]

    static func device(_ row: any SQLRow) throws -> DeviceRecord {
        DeviceRecord(
            id: try row.decode(column: "id", as: UUID.self),
            userID: try row.decode(column: "user_id", as: UUID.self),
            platform: DevicePlatform(rawValue: try row.decode(column: "platform", as: String.self)) ?? .webpush,
            name: try row.decode(column: "name", as: String.self),
            address: try row.decode(column: "address", as: String.self),
            p256dh: try row.decode(column: "p256dh", as: String?.self),
            auth: try row.decode(column: "auth", as: String?.self),
            topic: try row.decode(column: "topic", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            lastDeliveredAt: try row.decode(column: "last_delivered_at", as: Date?.self)
        )
    }

    // MARK: Preferences

    /// The user's choices, with the standard for kinds they never set.
    func preferences(of user: UUID, on db: any SQLDatabase) async throws -> NotificationPreferences {
        let rows = try await db.select().columns("kind", "push", "email").from("notification_preferences").where(
            "user_id",
            .equal,
            user
        ).all()
        var chosen: [NotificationKind: KindPreference] = [:]
        for row in rows {
            guard let kind = NotificationKind(rawValue: try row.decode(column: "kind", as: String.self)) else {
                continue
            }
            chosen[kind] = KindPreference(
                kind: kind,
                push: try row.decode(column: "push", as: Bool.self),
                email: try row.decode(column: "email", as: Bool.self)
            )
        }
        let quiet = try await db.select().columns("quiet_from", "quiet_until").from("notification_quiet_hours").where(
            "user_id",
            .equal,
            user
        ).first()
        return NotificationPreferences(
            kinds: NotificationKind.allCases.map { chosen[$0] ?? NotificationPreferences.standard.preference($0) },
            quietHours: try quiet.map {
                QuietHours(
                    from: try $0.decode(column: "quiet_from", as: String.self),
                    until: try $0.decode(column: "quiet_until", as: String.self)
                )
            }
        )
    }

    /// Replaces the kinds named in `preferences` and the quiet hours.
    func savePreferences(_ preferences: NotificationPreferences, of user: UUID, on db: any SQLDatabase) async throws {
        for kind in preferences.kinds {
            try await db.delete(from: "notification_preferences").where("user_id", .equal, user).where(
                "kind",
                .equal,
                kind.kind.rawValue
            ).run()
            try await db.insert(into: "notification_preferences").columns("user_id", "kind", "push", "email")
                .values(SQLBind(user), SQLBind(kind.kind.rawValue), SQLBind(kind.push), SQLBind(kind.email)).run()
        }
        try await db.delete(from: "notification_quiet_hours").where("user_id", .equal, user).run()
        if let quiet = preferences.quietHours {
            try await db.insert(into: "notification_quiet_hours").columns("user_id", "quiet_from", "quiet_until")
                .values(SQLBind(user), SQLBind(quiet.from), SQLBind(quiet.until)).run()
        }
    }

    /// Where a person's notifications go besides their devices: a verified address, their time zone and language.
    func recipient(
        _ user: UUID,
        on db: any SQLDatabase
    ) async throws -> (
        email: String?, timeZone: String?, language: String?
    )? {
        guard
            let row = try await db.select().columns("email", "email_verified", "time_zone", "language").from("users")
                .where("id", .equal, user)
                .where("deleted_at", .is, SQLLiteral.null).first()
        else { return nil }
        let verified = try row.decode(column: "email_verified", as: Bool.self)
        return (
            verified ? try row.decode(column: "email", as: String.self) : nil,
            try row.decode(column: "time_zone", as: String?.self),
            try row.decode(column: "language", as: String?.self)
        )
    }

    /// The languages people chose (none chosen: absent).
    func languages(of users: Set<UUID>, on db: any SQLDatabase) async throws -> [UUID: String] {
        guard !users.isEmpty else { return [:] }
        let rows = try await db.select().columns("id", "language").from("users")
            .where("id", .in, Array(users)).where("language", .isNot, SQLLiteral.null).all()
        var languages: [UUID: String] = [:]
        for row in rows {
            languages[try row.decode(column: "id", as: UUID.self)] = try row.decode(column: "language", as: String.self)
        }
        return languages
    }
}
