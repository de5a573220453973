import Foundation
import PlazaCore
import SQLKit

/// A row of `review_items`, with the ids of the admins who claimed or decided it (the service names them).
struct ReviewRecord: Sendable {
    var item: ReviewItem
    var claimedBy: UUID?
    var decidedBy: UUID?
    /// Who is told of the decision (the subject when empty).
    var notify: [UUID]
    /// The account a `suspend` or `reinstate` acts on.
    var accountId: UUID? = nil
}

/// All SQL of the review queue: one open item per subject and kind, claimed by one admin at a time.
struct ReviewStore: Sendable {
    private static let columns = [
        "id", "kind", "subject_id", "subject", "findings", "state", "created_at", "claimed_by", "claimed_until",
        "decided_by", "decided_at",
        "reason", "diff", "notify", "actions", "account_id", "action",
    ]

    /// Files a request: a new open item, or new subject and findings for the subject's open item of that kind.
    func file(_ submission: ReviewSubmission, now: Date, on db: any SQLDatabase) async throws {
        let json = { (value: any Encodable) in String(decoding: try JSONEncoder().encode(value), as: UTF8.self) }
        let (findings, diff, notify) = (
            try json(submission.findings), try json(submission.diff), try json(submission.notify)
        )
        let actions = try json(submission.actions)
        try await db.raw(
            """
            INSERT INTO review_items (id, kind, subject_id, subject, findings, diff, notify, actions, account_id, state, created_at) \
            VALUES (\(bind: UUID()), \(bind: submission.kind.rawValue), \(bind: submission.subjectId), \(bind: submission.subject), \
            \(bind: findings), \(bind: diff), \(bind: notify), \(bind: actions), \(bind: submission.accountId), 'open', \(bind: now)) \
            ON CONFLICT (kind, subject_id) WHERE state = 'open' DO UPDATE SET subject = excluded.subject, findings = excluded.findings, \
            diff = excluded.diff, notify = excluded.notify, actions = excluded.actions, account_id = excluded.account_id
            """
        ).run()
    }

    /// Open items oldest first (the queue), decided ones newest first; after the cursor row `after`.
    func items(
        state: ReviewState,
        kind: ReviewKind?,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [ReviewRecord] {
        var select = db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("review_items").where(
            "state",
            .equal,
            state.rawValue
        )
        if let kind { select = select.where("kind", .equal, kind.rawValue) }
        switch (state, after) {
        case (.open, let after?): select = select.nearestNewer(than: after, in: "review_items", by: "created_at")
        case (.open, nil): select = select.orderBy("created_at").orderBy("id")
        default: select = select.newestFirst(after: after, in: "review_items", by: "created_at")
        }
        return try await select.limit(limit).all().map(Self.record)
    }

    /// The item, locked for the deciding transaction when `forUpdate`.
    func item(_ id: UUID, forUpdate: Bool = false, on db: any SQLDatabase) async throws -> ReviewRecord? {
        var select = db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("review_items").where(
            "id",
            .equal,
            id
        )
        if forUpdate { select = select.for(.update) }
        return try await select.first().map(Self.record)
    }

    /// The open item of a subject, if any (a merchant's page shows whether someone is looking).
    func openItem(kind: ReviewKind, subject: UUID, on db: any SQLDatabase) async throws -> ReviewRecord? {
        try await db.select().columns(Self.columns.map { SQLIdentifier($0) }).from("review_items").where(
            "kind",
            .equal,
            kind.rawValue
        )
        .where("subject_id", .equal, subject).where("state", .equal, ReviewState.open.rawValue).first().map(Self.record)
    }

    /// Claims an open item for `admin` until `until`, unless another admin holds it still. True when claimed.
    func claim(_ id: UUID, admin: UUID, until: Date, now: Date, on db: any SQLDatabase) async throws -> Bool {
        let rows = try await db.update("review_items").set("claimed_by", to: admin).set("claimed_until", to: until)
            .where("id", .equal, id)
            .where("state", .equal, ReviewState.open.rawValue)
            .where {
                $0.where("claimed_by", .is, SQLLiteral.null).orWhere("claimed_by", .equal, admin).orWhere(
                    "claimed_until",
                    .lessThan,
                    now
                )
            }
            .returning("id").all()
        return !rows.isEmpty
    }

    /// Gives a claim back (the admin closed the item without deciding).
    func release(_ id: UUID, admin: UUID, on db: any SQLDatabase) async throws {
        try await db.update("review_items").set("claimed_by", to: SQLLiteral.null).set(
            "claimed_until",
            to: SQLLiteral.null
        )
        .where("id", .equal, id).where("claimed_by", .equal, admin).where("state", .equal, ReviewState.open.rawValue)
        .run()
    }

    func decide(
        _ id: UUID,
        _ state: ReviewState,
        admin: UUID,
        reason: String?,
        action: ReviewAction? = nil,
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        try await db.update("review_items").set("state", to: state.rawValue).set("decided_by", to: admin).set(
            "decided_at",
            to: now
        )
        .set("action", to: action?.rawValue)
        .set("reason", to: reason).set("claimed_by", to: SQLLiteral.null).set("claimed_until", to: SQLLiteral.null)
        .where("id", .equal, id).run()
    }

    func openCount(on db: any SQLDatabase) async throws -> Int {
        try await db.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n").from("review_items")
            .where("state", .equal, ReviewState.open.rawValue).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    private static func record(_ row: any SQLRow) throws -> ReviewRecord {
        let findings = try row.decode(column: "findings", as: String.self)
        let json = { (column: String) in Data((try row.decode(column: column, as: String?.self) ?? "[]").utf8) }
        let item = ReviewItem(
            id: try row.decode(column: "id", as: UUID.self),
            kind: ReviewKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .merchant,
            subjectId: try row.decode(column: "subject_id", as: UUID.self),
            subject: try row.decode(column: "subject", as: String.self),
            findings: (try? JSONDecoder().decode([String].self, from: Data(findings.utf8))) ?? [],
            diff: (try? JSONDecoder().decode([ReviewChange].self, from: json("diff"))) ?? [],
            state: ReviewState(rawValue: try row.decode(column: "state", as: String.self)) ?? .open,
            createdAt: try row.decode(column: "created_at", as: Date.self),
            claimedUntil: try row.decode(column: "claimed_until", as: Date?.self),
            decidedAt: try row.decode(column: "decided_at", as: Date?.self),
            reason: try row.decode(column: "reason", as: String?.self),
            actions: (try? JSONDecoder().decode([ReviewAction].self, from: json("actions"))) ?? [],
            action: try row.decode(column: "action", as: String?.self).flatMap(ReviewAction.init(rawValue:))
        )
        return ReviewRecord(
            item: item,
            claimedBy: try row.decode(column: "claimed_by", as: UUID?.self),
            decidedBy: try row.decode(column: "decided_by", as: UUID?.self),
            notify: (try? JSONDecoder().decode([UUID].self, from: json("notify"))) ?? [],
            accountId: try row.decode(column: "account_id", as: UUID?.self)
        )
    }
}
