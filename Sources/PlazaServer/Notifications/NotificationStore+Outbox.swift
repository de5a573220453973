import Foundation
import PlazaCore
import SQLKit

/// The outbox's SQL: notifications queued and fanned out into deliveries, each claimed, then done or retried.
extension NotificationStore {
    /// Queues each notification whose person can hear it outside the app (a push device, or e-mail chosen for its
    /// kind), in one statement whatever the count, inside the transaction of what it reports. Everyone else has it in
    /// the inbox and live events already, so nothing is written for them.
    package func enqueue(
        _ alerts: [(id: UUID, user: UUID, content: NotificationContent)],
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        guard !alerts.isEmpty else { return }
        // The request's trace, for the pushes sent later (empty when tracing is off).
        let trace = PlazaTracer.currentContext?.traceparent ?? ""
        let rows = alerts.map { alert in
            SQLGroupExpression([
                SQLBind(alert.id), SQLBind(alert.user), SQLBind(alert.content.kind.rawValue),
                SQLBind(alert.content.title),
                SQLBind(alert.content.body), SQLBind(alert.content.link), SQLBind(now), SQLBind(trace),
            ])
        }
        // Kinds mailed by default (`NotificationPreferences.standard`) reach people who never chose otherwise.
        let mailedByDefault = NotificationKind.allCases.filter { NotificationPreferences.standard.preference($0).email }
            .map { SQLBind($0.rawValue) }
        // Both engines name a VALUES list's columns column1, column2, ...
        try await db.raw(
            """
            INSERT INTO notifications (id, user_id, kind, title, body, link, created_at, trace_parent) \
            SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8 \
            FROM (VALUES \(SQLList(rows))) AS v \
            WHERE EXISTS (SELECT 1 FROM push_devices d WHERE d.user_id = v.column2) \
            OR EXISTS (SELECT 1 FROM notification_preferences p WHERE p.user_id = v.column2 AND p.kind = v.column3 AND p.email) \
            OR (v.column3 IN (\(SQLList(mailedByDefault))) AND NOT EXISTS (SELECT 1 FROM notification_preferences p \
            WHERE p.user_id = v.column2 AND p.kind = v.column3))
            """
        ).run()
    }

    /// Claims up to `limit` notifications not yet fanned out, for `lease` seconds.
    func claimWaiting(
        now: Date,
        lease: TimeInterval,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [WaitingNotification] {
        let ids = try await db.select().column("id").from("notifications").where("fanned_out_at", .is, SQLLiteral.null)
            .where { $0.where("locked_until", .is, SQLLiteral.null).orWhere("locked_until", .lessThan, now) }
            .orderBy("created_at").limit(limit).all().map { try $0.decode(column: "id", as: UUID.self) }
        var claimed: [WaitingNotification] = []
        for id in ids {
            // The conditional update is the claim: of several processes, one gets the row back.
            let claim = db.update("notifications").set("locked_until", to: now.addingTimeInterval(lease)).where(
                "id",
                .equal,
                id
            )
            .where("fanned_out_at", .is, SQLLiteral.null)
            .where { $0.where("locked_until", .is, SQLLiteral.null).orWhere("locked_until", .lessThan, now) }
            guard let row = try await claim.returning("user_id", "kind", "title", "body", "link").first() else {
                continue
            }
            claimed.append(
                WaitingNotification(
                    id: id,
                    userID: try row.decode(column: "user_id", as: UUID.self),
                    content: NotificationContent(
                        kind: NotificationKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .account,
                        title: try row.decode(column: "title", as: String.self),
                        body: try row.decode(column: "body", as: String.self),
                        link: try row.decode(column: "link", as: String.self)
                    )
                )
            )
        }
        return claimed
    }

    /// Writes a notification's deliveries (one per device, first tried at `notBefore`) and marks it fanned out.
    func fanOut(
        _ notification: UUID,
        to devices: [UUID],
        notBefore: Date,
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        if !devices.isEmpty {
            var insert = db.insert(into: "push_deliveries").columns(
                "id",
                "notification_id",
                "device_id",
                "next_attempt_at",
                "attempts"
            )
            for device in devices {
                insert = insert.values(
                    SQLBind(UUID()),
                    SQLBind(notification),
                    SQLBind(device),
                    SQLBind(notBefore),
                    SQLBind(0)
                )
            }
            try await insert.run()
        }
        try await db.update("notifications").set("fanned_out_at", to: now).set("locked_until", to: SQLLiteral.null)
            .where("id", .equal, notification)
            .run()
    }

    /// Claims up to `limit` due deliveries for `lease` seconds, with their device and what to show.
    func claimDue(now: Date, lease: TimeInterval, limit: Int, on db: any SQLDatabase) async throws -> [ClaimedDelivery]
    {
        let ids = try await db.select().column("id").from("push_deliveries").where("sent_at", .is, SQLLiteral.null)
            .where("next_attempt_at", .lessThanOrEqual, now)
            .where { $0.where("locked_until", .is, SQLLiteral.null).orWhere("locked_until", .lessThan, now) }
            .orderBy("next_attempt_at").limit(limit).all().map { try $0.decode(column: "id", as: UUID.self) }
        var claimed: [ClaimedDelivery] = []
        for id in ids {
            let claim = db.update("push_deliveries").set("locked_until", to: now.addingTimeInterval(lease))
                .set(SQLIdentifier("attempts"), to: SQLRaw("attempts + 1")).where("id", .equal, id).where(
                    "sent_at",
                    .is,
                    SQLLiteral.null
                )
                .where { $0.where("locked_until", .is, SQLLiteral.null).orWhere("locked_until", .lessThan, now) }
            guard let row = try await claim.returning("notification_id", "device_id", "attempts").first() else {
                continue
            }
            let (notification, device) = (
                try row.decode(column: "notification_id", as: UUID.self),
                try row.decode(column: "device_id", as: UUID.self)
            )
            guard
                let deviceRow = try await db.select().columns(Self.deviceColumns).from("push_devices").where(
                    "id",
                    .equal,
                    device
                ).first(),
                let shown = try await db.select().columns("kind", "title", "body", "link", "created_at", "trace_parent")
                    .from(
                        "notifications"
                    )
                    .where("id", .equal, notification).first()
            else { continue }
            let payload = PushPayload(
                id: notification,
                kind: NotificationKind(rawValue: try shown.decode(column: "kind", as: String.self)) ?? .account,
                title: try shown.decode(column: "title", as: String.self),
                body: try shown.decode(column: "body", as: String.self),
                link: try shown.decode(column: "link", as: String.self),
                sentAt: try shown.decode(column: "created_at", as: Date.self)
            )
            claimed.append(
                ClaimedDelivery(
                    id: id,
                    attempts: try row.decode(column: "attempts", as: Int.self),
                    device: try Self.device(deviceRow),
                    payload: payload,
                    trace: try shown.decode(column: "trace_parent", as: String?.self)
                        .flatMap(TraceContext.init(traceparent:))
                )
            )
        }
        return claimed
    }

    /// The push service took it (or it is given up: `error` says why).
    func markDone(_ delivery: ClaimedDelivery, error: String? = nil, now: Date, on db: any SQLDatabase) async throws {
        try await db.update("push_deliveries").set("sent_at", to: now).set("locked_until", to: SQLLiteral.null).set(
            "last_error",
            to: error
        )
        .where("id", .equal, delivery.id).run()
        if error == nil {
            try await db.update("push_devices").set("last_delivered_at", to: now).where(
                "id",
                .equal,
                delivery.device.id
            ).run()
        }
    }

    /// Tries again at `next`.
    func retry(_ delivery: ClaimedDelivery, at next: Date, error: String, on db: any SQLDatabase) async throws {
        try await db.update("push_deliveries").set("next_attempt_at", to: next).set("locked_until", to: SQLLiteral.null)
            .set("last_error", to: String(error.prefix(500))).where("id", .equal, delivery.id).run()
    }
}

/// A notification waiting to be fanned out to its person's devices (and mail).
struct WaitingNotification: Sendable {
    var id: UUID
    var userID: UUID
    var content: NotificationContent
}

/// One push to one device, claimed for sending.
struct ClaimedDelivery: Sendable {
    var id: UUID
    var attempts: Int
    var device: DeviceRecord
    var payload: PushPayload
    /// The trace of the request that queued it, which its push joins.
    var trace: TraceContext? = nil
}
