import Foundation
import PlazaCore
import SQLKit

/// A row of `wallet_activity`: one side of one movement, as its owner's history shows it.
package struct ActivityRecord: Sendable {
    var id = UUID.timeOrdered()
    var owner: UUID
    var kind: ActivityKind
    var amount: Int64
    var currency: String
    var status: FundingStatus
    var counterpart: Party
    /// The counterpart's user or business id, for filtering (a user's id never reaches the API).
    var counterpartId: UUID?
    var note: String?
    var referenceId: UUID
    var createdAt: Date
    /// The processor's reason for a failed top-up or withdrawal (set when it settles, never at insert).
    var failureCode: String?

    /// What reads select: the inserted columns and the failure reason.
    static let readColumns = columns + ["failure_code"]

    static let columns = [
        "id", "owner_id", "kind", "amount", "currency", "status", "counterpart_kind", "counterpart_id",
        "counterpart_username", "counterpart_name",
        "note", "reference_id", "created_at",
    ]

    var values: [any SQLExpression] {
        [
            SQLBind(id), SQLBind(owner), SQLBind(kind.rawValue), SQLBind(amount), SQLBind(currency),
            SQLBind(status.rawValue),
            SQLBind(counterpart.kind.rawValue), SQLBind(counterpartId ?? counterpart.id), SQLBind(counterpart.username),
            SQLBind(counterpart.name),
            SQLBind(note),
            SQLBind(referenceId), SQLBind(createdAt),
        ]
    }

    var dto: ActivityEntry {
        ActivityEntry(
            id: id,
            kind: kind,
            amount: amount,
            currency: currency,
            status: status,
            counterpart: counterpart,
            note: note,
            referenceId: referenceId,
            createdAt: createdAt,
            failureCode: failureCode
        )
    }
}

extension ActivityRecord {
    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        owner = try row.decode(column: "owner_id", as: UUID.self)
        kind = ActivityKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .transferIn
        amount = try row.decode(column: "amount", as: Int64.self)
        currency = try row.decode(column: "currency", as: String.self)
        status = FundingStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .succeeded
        let kind = Party.Kind(rawValue: try row.decode(column: "counterpart_kind", as: String.self)) ?? .plaza
        counterpartId = try row.decode(column: "counterpart_id", as: UUID?.self)
        counterpart = Party(
            kind: kind,
            id: kind == .business ? counterpartId : nil,
            username: try row.decode(column: "counterpart_username", as: String?.self),
            name: try row.decode(column: "counterpart_name", as: String.self)
        )
        note = try row.decode(column: "note", as: String?.self)
        referenceId = try row.decode(column: "reference_id", as: UUID.self)
        createdAt = try row.decode(column: "created_at", as: Date.self)
        failureCode = try row.decode(column: "failure_code", as: String?.self)
    }
}

/// What `GET /v1/activity` narrows to.
package struct ActivityFilter: Sendable {
    var kinds: [ActivityKind] = []
    /// A counterpart's user or business id.
    var counterpart: UUID?
    var from: Date?
    var until: Date?
}

extension ActivityFilter {
    /// No filter: everything.
    package static var all: ActivityFilter { ActivityFilter() }
}

extension ActivityRecord {
    package static func make(
        owner: UUID,
        kind: ActivityKind,
        amount: Int64,
        currency: String,
        status: FundingStatus,
        counterpart: Party,
        counterpartId: UUID?,
        note: String?,
        referenceId: UUID,
        createdAt: Date
    ) -> ActivityRecord {
        ActivityRecord(
            owner: owner,
            kind: kind,
            amount: amount,
            currency: currency,
            status: status,
            counterpart: counterpart,
            counterpartId: counterpartId,
            note: note,
            referenceId: referenceId,
            createdAt: createdAt
        )
    }
}

/// All SQL of the wallet history.
package struct ActivityStore: Sendable {
    package func insert(_ records: [ActivityRecord], on db: any SQLDatabase) async throws {
        guard let statement = insertStatement(records, on: db) else { return }
        try await db.execute(sql: statement) { _ in }
    }

    /// The statement of `insert` (for `pipeline`); nil for no records.
    func insertStatement(_ records: [ActivityRecord], on db: any SQLDatabase) -> (any SQLExpression)? {
        guard !records.isEmpty else { return nil }
        var insert = db.insert(into: "wallet_activity").columns(ActivityRecord.columns)
        for record in records { insert = insert.values(record.values) }
        return insert.query
    }

    /// Moves the entries of a top-up or withdrawal to their final status.
    func setStatus(
        _ status: FundingStatus,
        failureCode: String? = nil,
        reference: UUID,
        on db: any SQLDatabase
    ) async throws {
        try await db.update("wallet_activity").set("status", to: status.rawValue).set("failure_code", to: failureCode)
            .where("reference_id", .equal, reference).run()
    }

    /// `owner`'s entries, newest first; `after` is the last entry of the previous page.
    package func list(
        owner: UUID,
        filter: ActivityFilter,
        limit: Int,
        after: UUID?,
        on db: any SQLDatabase
    ) async throws -> [ActivityRecord] {
        var query = db.select().columns(ActivityRecord.readColumns.map { SQLIdentifier($0) }).from("wallet_activity")
            .where("owner_id", .equal, owner)
        if !filter.kinds.isEmpty { query = query.where("kind", .in, SQLBind.group(filter.kinds.map(\.rawValue))) }
        if let counterpart = filter.counterpart { query = query.where("counterpart_id", .equal, counterpart) }
        if let from = filter.from { query = query.where("created_at", .greaterThanOrEqual, from) }
        if let until = filter.until { query = query.where("created_at", .lessThan, until) }
        return try await query.newestFirst(after: after, in: "wallet_activity", by: "created_at").limit(limit).all()
            .map(ActivityRecord.init(row:))
    }

    /// Up to `limit` of `owner`'s entries newer than `before`, nearest first (a history page's "Newer").
    func listNewer(owner: UUID, than before: UUID, limit: Int, on db: any SQLDatabase) async throws -> [ActivityRecord]
    {
        try await db.select().columns(ActivityRecord.readColumns.map { SQLIdentifier($0) }).from("wallet_activity")
            .where("owner_id", .equal, owner)
            .nearestNewer(than: before, in: "wallet_activity", by: "created_at").limit(limit).all().map(
                ActivityRecord.init(row:)
            )
    }

    /// `owner`'s entries of one movement (a charge and its refunds share their reference), oldest first.
    func entries(owner: UUID, reference: UUID, on db: any SQLDatabase) async throws -> [ActivityRecord] {
        try await db.select().columns(ActivityRecord.readColumns.map { SQLIdentifier($0) }).from("wallet_activity")
            .where("owner_id", .equal, owner)
            .where("reference_id", .equal, reference).orderBy("created_at").orderBy("id").limit(50).all().map(
                ActivityRecord.init(row:)
            )
    }

    /// The people `owner` last sent money to or got money from, most recent first.
    func recentPeople(
        owner: UUID,
        limit: Int,
        on db: any SQLDatabase
    ) async throws -> [(username: String, name: String)] {
        let rows = try await db.select().column("counterpart_username").column("counterpart_name")
            .column(SQLFunction("MAX", args: SQLColumn("created_at")), as: "last").from("wallet_activity").where(
                "owner_id",
                .equal,
                owner
            )
            .where("counterpart_kind", .equal, Party.Kind.user.rawValue).where(
                "counterpart_username",
                .isNot,
                SQLLiteral.null
            )
            .where("kind", .in, SQLBind.group([ActivityKind.transferIn.rawValue, ActivityKind.transferOut.rawValue]))
            .groupBy("counterpart_username").groupBy("counterpart_name").orderBy(
                SQLIdentifier("last"),
                SQLDirection.descending
            ).limit(limit).all()
        return try rows.map {
            (
                try $0.decode(column: "counterpart_username", as: String.self),
                try $0.decode(column: "counterpart_name", as: String.self)
            )
        }
    }

    /// Entries whose counterpart was `user` name "Deleted user" from now on (no username).
    func forgetCounterpart(_ user: UUID, on db: any SQLDatabase) async throws {
        try await db.update("wallet_activity").set("counterpart_name", to: "Deleted user").set(
            "counterpart_username",
            to: SQLLiteral.null
        )
        .where("counterpart_kind", .equal, Party.Kind.user.rawValue).where("counterpart_id", .equal, user).run()
    }
}
