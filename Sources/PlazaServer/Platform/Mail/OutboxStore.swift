import Foundation
import SQLKit

/// The durable mail outbox: mail is written in the transaction that causes it and delivered after.
struct OutboxStore: Sendable {
    /// A queued mail as the dev mailbox shows it.
    struct Entry: Codable, Sendable {
        var to: String
        var subject: String
        var text: String
        var sentAt: Date
    }

    /// Queues `mail`; pass the transaction's `db` so mail goes out only if the change commits.
    func enqueue(_ mail: OutgoingMail, on db: any SQLDatabase, now: Date = Date()) async throws {
        try await db.insert(into: "outbox_emails")
            .columns("id", "to_address", "subject", "text_body", "created_at", "next_attempt_at", "attempts")
            .values(
                SQLBind(UUID()),
                SQLBind(mail.to),
                SQLBind(mail.subject),
                SQLBind(mail.text),
                SQLBind(now),
                SQLBind(now),
                SQLBind(0)
            )
            .run()
    }

    /// Claims up to `limit` due mails for `lease` seconds; another process will not claim them meanwhile.
    func claimDue(
        on db: any SQLDatabase,
        now: Date,
        lease: TimeInterval,
        limit: Int = 20
    ) async throws -> [(UUID, OutgoingMail)] {
        let due = try await db.select().column("id").from("outbox_emails")
            .where("sent_at", .is, SQLLiteral.null)
            .where("next_attempt_at", .lessThanOrEqual, now)
            .where { $0.where("locked_until", .is, SQLLiteral.null).orWhere("locked_until", .lessThan, now) }
            .orderBy("next_attempt_at").limit(limit)
            .all().map { try $0.decode(column: "id", as: UUID.self) }
        var claimed: [(UUID, OutgoingMail)] = []
        for id in due {
            // The conditional update is the claim: of several processes, one gets the row back.
            let row = try await db.update("outbox_emails")
                .set("locked_until", to: now.addingTimeInterval(lease))
                .set(SQLIdentifier("attempts"), to: SQLRaw("attempts + 1"))
                .where("id", .equal, id)
                .where { $0.where("locked_until", .is, SQLLiteral.null).orWhere("locked_until", .lessThan, now) }
                .returning("to_address", "subject", "text_body")
                .first()
            if let row {
                let mail = OutgoingMail(
                    to: try row.decode(column: "to_address", as: String.self),
                    subject: try row.decode(column: "subject", as: String.self),
                    text: try row.decode(column: "text_body", as: String.self)
                )
                claimed.append((id, mail))
            }
        }
        return claimed
    }

    func markSent(_ id: UUID, on db: any SQLDatabase, now: Date) async throws {
        try await db.update("outbox_emails").set("sent_at", to: now).set("locked_until", to: SQLLiteral.null).where(
            "id",
            .equal,
            id
        ).run()
    }

    /// Schedules another try with exponential back-off (30 s, 1 min, 2 min, ... at most 1 h).
    func markFailed(_ id: UUID, attempts: Int, error: String, on db: any SQLDatabase, now: Date) async throws {
        let delay = min(3600, 30 * pow(2, Double(max(0, attempts - 1))))
        try await db.update("outbox_emails")
            .set("next_attempt_at", to: now.addingTimeInterval(delay))
            .set("locked_until", to: SQLLiteral.null)
            .set("last_error", to: String(error.prefix(500)))
            .where("id", .equal, id).run()
    }

    func attempts(of id: UUID, on db: any SQLDatabase) async throws -> Int {
        try await db.select().column("attempts").from("outbox_emails").where("id", .equal, id).first()?.decode(
            column: "attempts",
            as: Int.self
        ) ?? 0
    }

    /// Every queued mail, newest first (the dev mailbox).
    func recent(on db: any SQLDatabase, limit: Int = 100) async throws -> [Entry] {
        try await db.select().columns("to_address", "subject", "text_body", "created_at", "sent_at").from(
            "outbox_emails"
        )
        .orderBy("created_at", .descending).limit(limit).all().map { row in
            Entry(
                to: try row.decode(column: "to_address", as: String.self),
                subject: try row.decode(column: "subject", as: String.self),
                text: try row.decode(column: "text_body", as: String.self),
                sentAt: try row.decode(column: "sent_at", as: Date?.self)
                    ?? row.decode(column: "created_at", as: Date.self)
            )
        }
    }
}
