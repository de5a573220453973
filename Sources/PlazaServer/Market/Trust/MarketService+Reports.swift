import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Reports and appeals: a student reports a listing, a student or a conversation (and may block in the same step); the
/// report goes to the admins' review queue with what was reported and its context. An admin removes the listing, warns
/// or suspends the student, always with a statement of reasons they read, or dismisses it. The student may appeal a
/// decision once; granting the appeal undoes it.
extension MarketService {
    func report(_ identity: Identity, _ request: ReportRequest, now: Date = Date()) async throws -> MarketReport {
        _ = try await requireStudent(identity, now: now, allowSuspended: true)
        let details = request.details?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        guard RatingRules.reportDetailsLength.contains(details?.count ?? 0) else {
            throw PlazaError.validation(
                field: "details",
                say("Keep it under {max} characters.", ["max": String(RatingRules.reportDetailsLength.upperBound)])
            )
        }
        let targets = [request.listingId != nil, request.username != nil, request.conversationId != nil].filter { $0 }
            .count
        guard targets == 1 else {
            throw PlazaError.validation(
                field: "listingId",
                phrase("Report one thing: a listing, a student or a conversation.")
            )
        }
        var findings: [String] = []
        var reported: UserRecord
        var listingTitle: String?
        if let id = request.listingId {
            let listing = try await listing(identity, id, now: now)
            guard let record = try await listings.listing(id, on: database.sql),
                let seller = try await AccountStore().user(id: record.sellerId, on: database.sql)
            else { throw PlazaError.notFound("listing") }
            (reported, listingTitle) = (seller, listing.title)
            findings.append(
                "Listing “\(listing.title)” (\(listing.state.rawValue)): \(String(listing.description.prefix(400)))"
            )
        } else if let username = request.username {
            reported = try await visibleStudent(identity, username: username, now: now)
        } else {
            let conversation = try await side(identity, request.conversationId ?? UUID())
            guard let other = try await AccountStore().user(id: conversation.other(identity.user.id), on: database.sql)
            else {
                throw PlazaError.notFound("conversation")
            }
            reported = other
            // The admin reads the conversation's last messages, as context.
            let recent = try await chat.messages(
                conversation: conversation.id,
                since: nil,
                before: nil,
                limit: 10,
                on: database.sql
            )
            for message in recent.reversed() {
                let who = message.senderId == identity.user.id ? identity.user.username : other.username
                findings.append(
                    "@\(who): \(String((try? cipher.open(message.body, conversation: conversation.id))?.prefix(300) ?? ""))"
                )
            }
        }
        guard reported.id != identity.user.id else {
            throw PlazaError.validation(field: "username", phrase("You cannot report yourself."))
        }
        let earlier = try await trust.upheldCount(about: reported.id, on: database.sql)
        let person = ReviewSubmission.person(displayName: reported.displayName, username: reported.username)
        findings.insert(
            "\(request.reason.label), reported by \(ReviewSubmission.person(displayName: identity.user.displayName, username: identity.user.username))"
                + (details.map { ": “\($0)”" } ?? "."),
            at: 0
        )
        findings.append(
            earlier == 0
                ? "No earlier report about them was upheld." : "\(earlier) earlier reports about them were upheld."
        )
        let record = TrustStore.ReportRecord(
            id: UUID(),
            reporterId: identity.user.id,
            reportedUserId: reported.id,
            listingId: request.listingId,
            conversationId: request.conversationId,
            reason: request.reason,
            details: details,
            state: .open,
            createdAt: now
        )
        let submission = ReviewSubmission(
            kind: .report,
            subjectId: record.id,
            subject: listingTitle.map { "“\($0)” by \(person)" } ?? person,
            findings: findings,
            notify: [identity.user.id],
            actions: request.listingId != nil ? [.removeListing, .warn, .suspend] : [.warn, .suspend],
            accountId: reported.id
        )
        let (trust, store, block) = (trust, store, request.block == true)
        let target = reported
        return try await events.transaction(publishing: { db in
            try await trust.insert(record, on: db)
            if block { _ = try await store.block(identity.user.id, target.id, now: now, on: db) }
            let report = MarketReport(
                id: record.id,
                state: .open,
                reason: request.reason,
                reported: target.username,
                listingId: request.listingId,
                blocked: block,
                createdAt: now
            )
            return (report, [.review(submission)])
        })
    }

    /// The upheld reports about me: what was done and why, and my appeal.
    func decisions(_ identity: Identity) async throws -> [ModerationDecision] {
        var decisions: [ModerationDecision] = []
        for record in try await trust.decisions(about: identity.user.id, on: database.sql) {
            guard let action = record.action, let statement = record.statement, let decidedAt = record.decidedAt else {
                continue
            }
            let title =
                try await record.listingId.asyncMap { try await listings.listing($0, on: database.sql)?.title } ?? nil
            decisions.append(
                ModerationDecision(
                    id: record.id,
                    action: action,
                    reason: record.reason,
                    statement: statement,
                    listingTitle: title,
                    decidedAt: decidedAt,
                    canAppeal: record.appealText == nil,
                    appeal: record.appealText.map {
                        ModerationDecision.Appeal(
                            text: $0,
                            state: record.appealState ?? .open,
                            reason: record.appealReason,
                            at: record.appealedAt ?? decidedAt
                        )
                    }
                )
            )
        }
        return decisions
    }

    /// Appeals a decision about me, once: it goes to the admins' queue.
    func appeal(
        _ identity: Identity,
        decision id: UUID,
        _ request: AppealRequest,
        now: Date = Date()
    ) async throws -> ModerationDecision {
        guard let record = try await trust.report(id, on: database.sql), record.reportedUserId == identity.user.id,
            record.state == .upheld,
            let action = record.action
        else { throw PlazaError.notFound("decision") }
        let text = request.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard RatingRules.appealLength.contains(text.count) else {
            throw PlazaError.validation(
                field: "text",
                say(
                    "Say in at most {max} characters why the decision is wrong.",
                    ["max": String(RatingRules.appealLength.upperBound)]
                )
            )
        }
        let undo: ReviewAction =
            switch action {
            case .removeListing: .restoreListing
            case .suspend: .reinstate
            default: .withdrawWarning
            }
        let title =
            try await record.listingId.asyncMap { try await listings.listing($0, on: database.sql)?.title } ?? nil
        let person = ReviewSubmission.person(displayName: identity.user.displayName, username: identity.user.username)
        let submission = ReviewSubmission(
            kind: .appeal,
            subjectId: id,
            subject: person,
            findings: [
                "They appeal: “\(text)”",
                "The decision (\(action.label.lowercased())\(title.map { ", “\($0)”" } ?? "")): “\(record.statement ?? "")”",
                "The report: \(record.reason.label)\(record.details.map { ": “\($0)”" } ?? ".")",
            ],
            notify: [identity.user.id],
            actions: [undo],
            accountId: identity.user.id
        )
        let trust = trust
        try await events.transaction(publishing: { db in
            guard try await trust.appeal(report: id, text: text, now: now, on: db) else {
                throw PlazaError(
                    .conflict,
                    .stateConflict,
                    phrase("You appealed this decision already."),
                    detail: phrase("Each decision may be appealed once.")
                )
            }
            return ((), [.review(submission)])
        })
        guard let decision = try await decisions(identity).first(where: { $0.id == id }) else {
            throw PlazaError.notFound("decision")
        }
        return decision
    }

    /// The marketplace's part of the bus's transactions: an admin's decision on a report or an appeal is applied to the
    /// listing, and the reported student reads the statement of reasons.
    func reviewRecorder() -> EventBus.Recorder {
        let service = self
        return EventBus.Recorder(reacting: { messages, db in
            var follow: [FeedMessage] = []
            let now = Date()
            for case .reviewed(let decision) in messages where [.report, .appeal].contains(decision.kind) {
                guard let report = try await service.trust.report(decision.subjectId, on: db) else { continue }
                follow += try await service.apply(decision, to: report, now: now, on: db)
            }
            return (!follow.isEmpty, follow)
        })
    }

    private func apply(
        _ decision: ReviewDecision,
        to report: TrustStore.ReportRecord,
        now: Date,
        on db: any SQLDatabase
    ) async throws
        -> [FeedMessage]
    {
        let title = try await report.listingId.asyncMap { try await listings.listing($0, on: db)?.title } ?? nil
        let link = "/market/decisions"
        if decision.kind == .report {
            let upheld = decision.approved
            guard
                try await trust.decide(
                    report: report.id,
                    upheld: upheld,
                    action: decision.action,
                    statement: decision.reason,
                    now: now,
                    on: db
                ),
                upheld, let action = decision.action
            else { return [] }
            if action == .removeListing, let listing = report.listingId {
                if try await listings.move(listing, from: [.active, .reserved], to: .removed, now: now, on: db) {
                    try await closeOffers(listing: listing, now: now, on: db)
                }
            }
            if action == .suspend {
                try await store.suspend(user: report.reportedUserId, at: now, reason: decision.reason, on: db)
            }
            let wording = action.decisionWording(listingTitle: title, reason: decision.reason)
            return [
                .alert(user: report.reportedUserId, kind: .market, link: link, wording),
                // The decision stays in their inbox with its reason, after the notification is gone (issue 39).
                .inboxNotice(
                    user: report.reportedUserId,
                    notice: InboxNotice(kind: .decision, link: link, wording, fullStop: true)
                ),
            ]
        }
        guard try await trust.decide(appeal: report.id, granted: decision.approved, reason: decision.reason, on: db)
        else { return [] }
        if decision.approved, decision.action == .restoreListing, let listing = report.listingId {
            _ = try await listings.move(listing, from: [.removed], to: .active, now: now, on: db)
        }
        if decision.approved, decision.action == .reinstate {
            try await store.suspend(user: report.reportedUserId, at: nil, reason: nil, on: db)
        }
        return []
    }
}
