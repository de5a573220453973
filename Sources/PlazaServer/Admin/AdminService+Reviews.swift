import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// The review queue: domains file items through the event bus, an admin claims one, then approves or rejects it with a
/// reason; the decision goes back to the subject's domain through the bus, in the transaction that writes the audit entry.
extension AdminService {
    /// The admin domain's part of the bus's transactions: review requests become queue items.
    func reviewRecorder() -> EventBus.Recorder {
        let reviews = reviews
        return EventBus.Recorder { messages, db in
            var wrote = false
            for case .review(let submission) in messages {
                try await reviews.file(submission, now: Date(), on: db)
                wrote = true
            }
            return wrote
        }
    }

    package func reviewQueue(
        state: ReviewState,
        kind: ReviewKind?,
        limit: Int,
        cursor: String?
    ) async throws -> Page<ReviewItem> {
        let after = try cursor.map { try RowCursor.decode($0).id }
        let records = try await reviews.items(
            state: state,
            kind: kind,
            limit: limit + 1,
            after: after,
            on: database.sql
        )
        let page = Array(records.prefix(limit))
        return Page(
            items: try await named(page, on: database.sql),
            nextCursor: records.count > limit ? page.last.map { RowCursor(id: $0.item.id).encoded } : nil
        )
    }

    func openReviews() async throws -> Int {
        try await reviews.openCount(on: database.sql)
    }

    func reviewItem(_ id: UUID) async throws -> ReviewItem {
        guard let record = try await reviews.item(id, on: database.sql) else {
            throw PlazaError.notFound("review item")
        }
        return try await named([record], on: database.sql)[0]
    }

    /// Holds an open item for `ReviewKind.claimDuration`, so that no other admin decides it meanwhile.
    func claim(_ admin: Identity, _ id: UUID, now: Date = Date()) async throws -> ReviewItem {
        let (reviews, until) = (reviews, now.addingTimeInterval(ReviewKind.claimDuration))
        return try await database.transaction { db in
            let record = try await self.decidable(id, by: admin, now: now, on: db)
            _ = try await reviews.claim(record.item.id, admin: admin.user.id, until: until, now: now, on: db)
            return try await self.reviewItem(id, on: db)
        }
    }

    /// Lets go of a claim without deciding.
    func release(_ admin: Identity, _ id: UUID) async throws -> ReviewItem {
        let reviews = reviews
        return try await database.transaction { db in
            try await reviews.release(id, admin: admin.user.id, on: db)
            return try await self.reviewItem(id, on: db)
        }
    }

    /// Approves or rejects (a rejection needs the reason its subject reads); the subject's domain applies it and the
    /// person is told, in the transaction that writes the audit entry.
    /// An item that offers actions (a report, an appeal) needs one of them to approve, and a statement of reasons either
    /// way; the subject's domain carries the action out in the same transaction (the bus's `reviewed` message).
    package func decide(
        _ admin: Identity,
        _ id: UUID,
        approve: Bool,
        reason: String?,
        action: ReviewAction? = nil,
        now: Date = Date()
    ) async throws -> ReviewItem {
        let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        let (reviews, audit) = (reviews, audit)
        return try await events.transaction { db -> (ReviewItem, [FeedMessage]) in
            let record = try await self.decidable(id, by: admin, now: now, on: db)
            let item = record.item
            let needsStatement = !item.actions.isEmpty
            if !approve || reason != nil || needsStatement, let problem = AdminRules.reasonProblem(reason ?? "") {
                throw PlazaError.validation(
                    field: "reason",
                    needsStatement ? phrase("Write the statement of reasons the person reads.") : problem
                )
            }
            let chosen = approve ? action : nil
            if approve, !item.actions.isEmpty {
                guard let chosen, item.actions.contains(chosen) else {
                    throw PlazaError.validation(
                        field: "action",
                        // The actions are the API's codes, as the client sends them.
                        say(
                            "Choose what to do: {actions}.",
                            ["actions": item.actions.map(\.rawValue).joined(separator: ", ")]
                        )
                    )
                }
            }
            try await reviews.decide(
                id,
                approve ? .approved : .rejected,
                admin: admin.user.id,
                reason: reason,
                action: chosen,
                now: now,
                on: db
            )
            try await audit.record(
                Self.entry(
                    admin,
                    "review.\(approve ? "approve" : "reject")",
                    item.subjectId,
                    kind: item.kind.rawValue,
                    reason: reason,
                    detail: item.subject + (chosen.map { " · \($0.rawValue)" } ?? ""),
                    at: now
                ),
                adminID: admin.user.id,
                on: db
            )
            // A stop from a report's item is audited as the stop endpoint's is, besides the decision.
            if chosen == .stopCampaign {
                try await audit.record(
                    Self.entry(admin, "campaign.stop", item.subjectId, kind: "campaign", reason: reason, at: now),
                    adminID: admin.user.id,
                    on: db
                )
            }
            let told = item.kind.decisionWording(item, approved: approve, reason: reason)
            let decision = ReviewDecision(
                kind: item.kind,
                subjectId: item.subjectId,
                approved: approve,
                reason: reason,
                action: chosen
            )
            return (
                try await self.reviewItem(id, on: db),
                [.reviewed(decision)]
                    + (record.notify.isEmpty ? [item.subjectId] : record.notify).map {
                        FeedMessage.alert(user: $0, kind: .account, link: told.link, told.wording)
                    }
            )
        }
    }

    /// The open item, locked, that `admin` may decide: nobody else's claim is running.
    private func decidable(
        _ id: UUID,
        by admin: Identity,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> ReviewRecord {
        guard let record = try await reviews.item(id, forUpdate: true, on: db) else {
            throw PlazaError.notFound("review item")
        }
        guard record.item.state == .open else {
            let by = try await name(record.decidedBy, on: db)
            let approved = record.item.state == .approved
            // A sentence for each outcome, with and without a name: "approved" is a word of the reader's language.
            let title =
                switch (by, approved) {
                case (let by?, true): say("{name} already approved this.", ["name": by])
                case (let by?, false): say("{name} already rejected this.", ["name": by])
                case (nil, true): say("An admin already approved this.")
                case (nil, false): say("An admin already rejected this.")
                }
            throw PlazaError(
                .conflict,
                .alreadyDecided,
                title,
                detail: phrase("Nothing was changed. Reload the queue to see what is still open.")
            )
        }
        if let holder = record.claimedBy, holder != admin.user.id, let until = record.item.claimedUntil, until > now {
            let who = try await name(holder, on: db)
            throw PlazaError(
                .conflict,
                .reviewClaimed,
                who.map { say("{name} is reviewing this.", ["name": $0]) } ?? say("Another admin is reviewing this."),
                detail: say(
                    "Their claim runs until {until}; pick another item or try again then.",
                    ["until": RFC3339.format(until)]
                )
            )
        }
        return record
    }

    private func reviewItem(_ id: UUID, on db: any SQLDatabase) async throws -> ReviewItem {
        guard let record = try await reviews.item(id, on: db) else { throw PlazaError.notFound("review item") }
        return try await named([record], on: db)[0]
    }

    /// The items with the usernames of the admins who claimed or decided them.
    private func named(_ records: [ReviewRecord], on db: any SQLDatabase) async throws -> [ReviewItem] {
        var names: [UUID: String] = [:]
        for id in Set(records.flatMap { [$0.claimedBy, $0.decidedBy].compactMap { $0 } }) {
            names[id] = try await name(id, on: db)
        }
        var items = records.map { record in
            var item = record.item
            item.claimedBy = record.claimedBy.flatMap { names[$0] }
            item.decidedBy = record.decidedBy.flatMap { names[$0] }
            if item.claimedUntil.map({ $0 < Date() }) ?? false { (item.claimedBy, item.claimedUntil) = (nil, nil) }
            return item
        }
        for index in items.indices where items[index].kind == .merchant {
            items[index].merchant = try await merchant(items[index].subjectId, on: db)
        }
        return items
    }

    private func name(_ id: UUID?, on db: any SQLDatabase) async throws -> String? {
        guard let id else { return nil }
        return (try? await accounts.adminUser(id, on: db))?.username
    }
}
