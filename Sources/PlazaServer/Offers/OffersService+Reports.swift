import Foundation
import PlazaCore
import SQLKit

/// Offers an admin can stop and a customer can report (issue 40). A customer's report files the campaign's one open
/// `offer_report` review item (the reports gather there, rather than one item each); an admin stops a campaign from that
/// item (`stop_campaign`) or through `POST /v1/admin/campaigns/{id}/stop`, both of which reach this domain as a
/// `reviewed` decision on the bus, applied inside the admin's transaction.
extension OffersService {
    /// Reports an offer that reached the customer: the new report (`created`), or the one they filed before (one per
    /// person and offer: a second tap is not an error, and files nothing new).
    func report(
        _ identity: Identity,
        _ id: UUID,
        _ request: OfferReportRequest,
        now: Date = Date()
    ) async throws -> (report: OfferReport, created: Bool) {
        let problems = OfferRules.reportProblems(request)
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
        let details = request.details?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        let (user, store, businesses) = (identity.user.id, store, businesses)
        return try await events.transaction { db -> ((report: OfferReport, created: Bool), [FeedMessage]) in
            // The campaign's row first, locked: reports of one campaign gather into its review item one at a time.
            guard try await store.campaign(id, forUpdate: true, on: db) != nil,
                let received = try await store.offer(id, user: user, on: db)
            else { throw PlazaError.notFound("offer") }
            if let existing = try await store.report(campaign: id, user: user, on: db) {
                return ((existing.dto, false), [])
            }
            let record = OfferReportRecord(
                campaignId: id,
                userId: user,
                reason: request.reason,
                details: details,
                createdAt: now
            )
            guard try await store.insertReport(record, on: db) else {
                let existing = try await store.report(campaign: id, user: user, on: db)
                return ((existing?.dto ?? record.dto, false), [])
            }
            let campaign = received.campaign
            let name =
                try await businesses.store.businesses(ids: [campaign.businessId], on: db)[campaign.businessId]?.name
                ?? "a business"
            let reports = try await store.openReports(campaign: id, on: db)
            let content = campaign.running
            let submission = ReviewSubmission(
                kind: .offerReport,
                subjectId: id,
                subject: "“\(content.title)” by \(name)",
                findings: ["The offer (\(content.kind.rawValue)) by \(name): “\(content.title)” — \(content.body)"]
                    + reports.map { OfferRules.reportFinding($0.reason, details: $0.details, at: $0.createdAt) },
                notify: reports.map(\.userId),
                actions: [.stopCampaign]
            )
            return ((record.dto, true), [.review(submission)])
        }
    }

    /// The report the customer filed of this offer, if any.
    func myReport(_ identity: Identity, _ id: UUID) async throws -> OfferReport? {
        try await store.report(campaign: id, user: identity.user.id, on: database.sql)?.dto
    }

    /// The campaign as the admin who stopped it reads it back.
    package func stoppedCampaign(_ id: UUID) async throws -> Campaign {
        guard let record = try await store.campaign(id, on: database.sql) else { throw PlazaError.notFound("campaign") }
        let business = try await businesses.store.businesses(ids: [record.businessId], on: database.sql)
        return record.dto(businessName: business[record.businessId]?.name ?? "")
    }

    /// An admin's decision about a campaign's reports (or a stop without any): stops it when upheld with
    /// `stop_campaign`, and closes the open reports either way.
    func applyReportDecision(_ decision: ReviewDecision, on db: any SQLDatabase) async throws -> [FeedMessage] {
        var follow: [FeedMessage] = []
        if decision.approved, decision.action == .stopCampaign {
            follow = try await stop(decision.subjectId, reason: decision.reason ?? "", on: db)
        }
        try await store.decideReports(campaign: decision.subjectId, decision.approved ? .upheld : .dismissed, on: db)
        return follow
    }

    /// Ends a running campaign at once with the reason its business reads, and tells its team (an alert, and an inbox
    /// entry that stays). 404 for an unknown campaign, 409 `state_conflict` for one that is not running.
    private func stop(_ id: UUID, reason: String, on db: any SQLDatabase) async throws -> [FeedMessage] {
        guard var record = try await store.campaign(id, forUpdate: true, on: db) else {
            throw PlazaError.notFound("campaign")
        }
        guard [.approved, .active, .paused].contains(record.state) else {
            throw Self.stateConflict(
                record.state,
                record.state == .ended
                    ? phrase("This campaign has ended already.") : phrase("Only a running campaign is stopped."),
                detail: phrase("Nothing was changed.")
            )
        }
        // Read once the row is locked: a claim that committed before is older than the stop (`plaza verify` checks).
        let now = Date()
        (record.state, record.stopReason, record.stoppedAt, record.updatedAt) = (.ended, reason, now, now)
        record.pendingChange = false
        try await store.update(record, on: db)
        let team =
            try await businesses.store.memberIDs(businesses: [record.businessId], on: db)[record.businessId] ?? []
        let link = "/offers/campaigns/\(id.uuidString.lowercased())"
        let wording = Wording(
            title: phrase("Plaza stopped your campaign “{title}”"),
            body: phrase("The reason: {reason}"),
            values: ["title": record.running.title, "reason": reason]
        )
        // The alert goes out in each member's language; the inbox notice reads in the reader's.
        return [.campaignsChanged]
            + team.sorted { $0.uuidString < $1.uuidString }.flatMap { member -> [FeedMessage] in
                [
                    .alert(user: member, kind: .account, link: link, wording),
                    .inboxNotice(
                        user: member,
                        notice: InboxNotice(kind: .decision, link: link, wording, fullStop: true)
                    ),
                ]
            }
    }
}
