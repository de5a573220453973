import Foundation
import HTTPTypes
import PlazaCore
import SQLKit

/// Offers: businesses' ad and coupon campaigns, linted at every save and approved by an admin before they run;
/// customers' offer settings and subscriptions.
package struct OffersService: Sendable {
    let database: PlazaDatabase
    let events: EventBus
    /// Who may act for a business, and where it is.
    let businesses: BusinessesService
    /// Who is in a shop now.
    let places: PlacesService
    /// Words the lint refuses (`PLAZA_OFFER_BLOCKED_WORDS`).
    var blockedWords: [String] = []
    /// The operator's calendar: schedules are read in the town's time.
    var calendar = Calendar(identifier: .gregorian)
    /// The Plaza's first currency: a percentage coupon's statistics count discounts in it.
    var currency = "USD"
    let store = OffersStore()
    /// The running campaigns with automatic delivery, by place (this process's copy).
    let index = CampaignIndex()

    // MARK: Campaigns

    /// Owners and staff create a draft; the lint's findings come back with it.
    package func createCampaign(
        _ identity: Identity,
        business: UUID,
        _ content: CampaignContent,
        now: Date = Date()
    ) async throws -> Campaign {
        let record = try await businesses.requireMember(identity, of: business)
        try await check(content, business: business)
        let campaign = CampaignRecord(
            id: UUID(),
            businessId: business,
            content: content,
            approved: nil,
            state: .draft,
            findings: try await lint(content, business: business, except: nil, now: now, on: database.sql),
            rejectionReason: nil,
            pendingChange: false,
            claimed: 0,
            createdBy: identity.user.id,
            createdAt: now,
            updatedAt: now
        )
        try await store.insert(campaign, on: database.sql)
        return campaign.dto(businessName: record.name)
    }

    func campaigns(_ identity: Identity, business: UUID, limit: Int, cursor: String?) async throws -> Page<Campaign> {
        let record = try await businesses.requireMember(identity, of: business)
        let after = try cursor.map { try RowCursor.decode($0).id }
        let rows = try await store.campaigns(business: business, limit: limit + 1, after: after, on: database.sql)
        let page = Array(rows.prefix(limit))
        return Page(
            items: page.map { $0.dto(businessName: record.name) },
            nextCursor: rows.count > limit ? page.last.map { RowCursor(id: $0.id).encoded } : nil
        )
    }

    /// About how many people a campaign of the business with this kind and target would reach now, wherever they are:
    /// the campaign editor's estimate, for owners and staff. Rounded, and `null` under 5.
    func reach(
        _ identity: Identity,
        business: UUID,
        _ request: CampaignReachRequest,
        now: Date = Date()
    ) async throws -> CampaignReach {
        _ = try await businesses.requireMember(identity, of: business)
        let content = CampaignContent(
            kind: request.kind,
            title: "",
            body: "",
            startsAt: now,
            endsAt: now,
            target: request.target
        )
        let prospects = try await store.prospects(
            business: business,
            paid: request.target.pastCustomers != nil,
            on: database.sql
        )
        let count = prospects.count { prospect in
            let subscribed =
                (request.kind == .ad ? prospect.subscription?.ads : prospect.subscription?.coupons) ?? false
            let person = OfferAudience(
                age: OfferRules.age(birthDate: prospect.birthDate, now: now),
                gender: prospect.gender,
                student: prospect.student,
                use: prospect.settings.use,
                subscribed: subscribed,
                lastPaid: prospect.lastPaid
            )
            return OfferRules.couldReach(content, person, settings: prospect.settings, business: business, now: now)
        }
        return CampaignReach(people: OfferRules.about(count))
    }

    /// The campaign, for its business's owners and staff (404 for anyone else).
    func campaign(_ identity: Identity, _ id: UUID) async throws -> Campaign {
        let (record, business) = try await member(identity, campaign: id)
        return record.dto(businessName: business.name)
    }

    /// Changes the newest content. A draft stays a draft (a rejected one becomes one again); a submitted campaign's
    /// review sees the change; an approved one keeps running as approved while the change waits for review.
    func changeCampaign(
        _ identity: Identity,
        _ id: UUID,
        _ change: CampaignChange,
        now: Date = Date()
    ) async throws -> Campaign {
        let (current, business) = try await member(identity, campaign: id)
        if let unknown = change.clear?.first(where: { !CampaignChange.clearable.contains($0) }) {
            throw PlazaError.validation(
                field: "clear",
                say(
                    "“{field}” cannot be cleared; use {fields}.",
                    ["field": unknown, "fields": CampaignChange.clearable.joined(separator: ", ")]
                )
            )
        }
        let content = change.applied(to: current.content)
        try await check(content, business: current.businessId)
        return try await events.transaction { db in
            guard var record = try await store.campaign(id, forUpdate: true, on: db) else {
                throw PlazaError.notFound("campaign")
            }
            let findings = try await lint(content, business: record.businessId, except: id, now: now, on: db)
            var messages: [FeedMessage] = []
            switch record.state {
            case .ended:
                throw Self.stateConflict(
                    record.state,
                    phrase("This campaign has ended."),
                    detail: phrase("Create a new campaign instead.")
                )
            case .draft, .rejected:
                record.state = .draft
            case .submitted, .approved, .active, .paused:
                try Self.refuseBlocked(findings)
                if record.state != .submitted { record.pendingChange = true }
            }
            (record.content, record.findings, record.updatedAt) = (content, findings, now)
            if record.state == .submitted || record.pendingChange {
                messages.append(try await review(record, businessName: business.name, on: db))
            }
            try await store.update(record, on: db)
            return (record.dto(businessName: business.name), messages)
        }
    }

    /// Sends a draft for review: refused with its `block` findings, else an admin sees it in the queue.
    package func submit(_ identity: Identity, _ id: UUID, now: Date = Date()) async throws -> Campaign {
        let (_, business) = try await member(identity, campaign: id)
        guard business.listed else { throw PlazaError.merchantNotApproved }
        return try await events.transaction { db in
            guard var record = try await store.campaign(id, forUpdate: true, on: db) else {
                throw PlazaError.notFound("campaign")
            }
            guard record.state == .draft || record.state == .rejected else {
                throw Self.stateConflict(
                    record.state,
                    phrase("Only a draft or a rejected campaign is submitted."),
                    detail: phrase("Change it to send a change.")
                )
            }
            record.findings = try await lint(record.content, business: record.businessId, except: id, now: now, on: db)
            try Self.refuseBlocked(record.findings)
            (record.state, record.rejectionReason, record.updatedAt) = (.submitted, nil, now)
            try await store.update(record, on: db)
            return (
                record.dto(businessName: business.name), [try await review(record, businessName: business.name, on: db)]
            )
        }
    }

    /// Pauses an active campaign (`resume` undoes it); nothing is delivered while paused.
    func setPaused(_ identity: Identity, _ id: UUID, _ paused: Bool, now: Date = Date()) async throws -> Campaign {
        let (_, business) = try await member(identity, campaign: id)
        return try await events.transaction { db in
            guard var record = try await store.campaign(id, forUpdate: true, on: db) else {
                throw PlazaError.notFound("campaign")
            }
            guard record.state == (paused ? .active : .paused) else {
                throw Self.stateConflict(
                    record.state,
                    paused
                        ? phrase("Only an active campaign is paused.") : phrase("Only a paused campaign is resumed."),
                    detail: nil
                )
            }
            (record.state, record.updatedAt) = (paused ? .paused : .active, now)
            try await store.update(record, on: db)
            return (record.dto(businessName: business.name), [.campaignsChanged])
        }
    }

    /// The campaign and its business, when the caller is one of its owners or staff.
    func member(_ identity: Identity, campaign id: UUID) async throws -> (CampaignRecord, BusinessRecord) {
        guard let record = try await store.campaign(id, on: database.sql) else { throw PlazaError.notFound("campaign") }
        do {
            return (record, try await businesses.requireMember(identity, of: record.businessId))
        } catch let error as PlazaError where error.code == .forbidden {
            throw PlazaError.notFound("campaign")
        }
    }

    /// Field problems, and locations that are not the business's.
    private func check(_ content: CampaignContent, business: UUID) async throws {
        var problems = CampaignRules.problems(content)
        if let ids = content.target.locationIds {
            // From the database, not the catalog: another process may have added the location a moment ago.
            let own = try await businesses.locationIDs(of: business)
            if let stranger = ids.first(where: { !own.contains($0) }) {
                problems.append(
                    FieldError(
                        field: "target.locationIds",
                        message: say(
                            "{id} is not a location of this business.",
                            ["id": stranger.uuidString.lowercased()]
                        )
                    )
                )
            }
        }
        if content.imageId != nil {
            problems.append(
                FieldError(field: "imageId", message: phrase("No picture of yours has this id; upload it first."))
            )
        }
        guard problems.isEmpty else { throw PlazaError.validation(problems) }
    }

    private func lint(
        _ content: CampaignContent,
        business: UUID,
        except: UUID?,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [CampaignFinding] {
        let others = try await store.liveCoupons(business: business, except: except ?? UUID(), on: db)
        let neighbours = others.map {
            CampaignRules.Neighbour(title: $0.running.title, startsAt: $0.running.startsAt, endsAt: $0.running.endsAt)
        }
        return CampaignRules.findings(content, neighbours: neighbours, blockedWords: blockedWords, now: now)
    }

    /// The review request for the campaign's newest content: its findings, the diff against the approved version, and
    /// the business's team to tell of the decision.
    private func review(
        _ record: CampaignRecord,
        businessName: String,
        on db: any SQLDatabase
    ) async throws -> FeedMessage {
        let team =
            try await businesses.store.memberIDs(businesses: [record.businessId], on: db)[record.businessId] ?? []
        return .review(
            ReviewSubmission(
                kind: .campaign,
                subjectId: record.id,
                subject: "“\(record.content.title)” by \(businessName)",
                findings: record.findings.map {
                    "\($0.severity == .block ? "Blocks" : "Warns") (\($0.code)): \($0.message)"
                },
                diff: CampaignDiff.changes(from: record.approved, to: record.content),
                notify: team.sorted { $0.uuidString < $1.uuidString }
            )
        )
    }

    static func refuseBlocked(_ findings: [CampaignFinding]) throws {
        let blocking = findings.filter { $0.severity == .block }
        guard !blocking.isEmpty else { return }
        var error = PlazaError(
            .unprocessableContent,
            .campaignRefused,
            phrase("This campaign cannot be submitted as it is."),
            detail: blocking.map(\.message).joined(separator: " "),
            errors: blocking.map { FieldError(field: $0.field, message: $0.message) }
        )
        error.findings = findings
        throw error
    }

    static func stateConflict(_ state: CampaignState, _ title: String, detail: String?) -> PlazaError {
        var error = PlazaError(.conflict, .stateConflict, title, detail: detail)
        error.currentState = state.rawValue
        return error
    }

    // MARK: Decisions and time

    /// Offers' part of a publishing transaction: an admin's decision on a campaign applies to it (on its reports too:
    /// a stop), and a campaign that starts running reaches its business's subscribers.
    func reviewRecorder() -> EventBus.Recorder {
        let service = self
        return EventBus.Recorder(reacting: { messages, db in
            var follow: [FeedMessage] = []
            let now = Date()
            for case .reviewed(let decision) in messages where decision.kind == .offerReport {
                follow += try await service.applyReportDecision(decision, on: db)
            }
            for case .reviewed(let decision) in messages where decision.kind == .campaign {
                // A stopped campaign stays stopped: a change that waited for review no longer runs.
                guard var record = try await service.store.campaign(decision.subjectId, forUpdate: true, on: db),
                    record.stoppedAt == nil
                else { continue }
                let wasActive = record.state == .active
                Self.apply(decision, to: &record, now: now)
                try await service.store.update(record, on: db)
                follow.append(.campaignsChanged)
                if record.state == .active, !wasActive {
                    follow += try await service.broadcast(record, now: now, on: db)
                }
            }
            return (!follow.isEmpty, follow)
        })
    }

    static func apply(_ decision: ReviewDecision, to record: inout CampaignRecord, now: Date) {
        record.updatedAt = now
        record.pendingChange = false
        guard decision.approved else {
            record.rejectionReason = decision.reason
            if record.state == .submitted { record.state = .rejected }
            return
        }
        record.approved = record.content
        record.rejectionReason = nil
        if [.submitted, .rejected, .draft, .approved].contains(record.state) {
            record.state = record.content.startsAt > now ? .approved : .active
        }
        if record.content.endsAt <= now { record.state = .ended }
    }
}

/// What differs between two versions of a campaign, field by field, in words an admin reads.
enum CampaignDiff {
    /// Against nothing (never approved), every field the campaign sets: the admin reads all of it.
    static func changes(from old: CampaignContent?, to new: CampaignContent) -> [ReviewChange] {
        guard let old else {
            return fields(new).compactMap { field, value in
                value.map { ReviewChange(field: field, before: nil, after: $0) }
            }
        }
        let (before, after) = (fields(old), fields(new))
        return after.compactMap { field, value in
            let previous = before.first { $0.0 == field }?.1
            return previous == value ? nil : ReviewChange(field: field, before: previous, after: value)
        }
    }

    private static func fields(_ content: CampaignContent) -> [(String, String?)] {
        [
            ("title", content.title), ("body", content.body), ("startsAt", RFC3339.format(content.startsAt)),
            ("endsAt", RFC3339.format(content.endsAt)), ("schedule", content.schedule.map(CampaignWords.schedule)),
            ("target", CampaignWords.target(content.target)),
            ("delivery", content.delivery.map(\.rawValue).joined(separator: ", ")),
            ("discount", content.discount.map(CampaignWords.discount)),
            ("minimumSpend", content.minimumSpend?.description), ("maxDiscount", content.maxDiscount?.description),
            ("totalRedemptions", content.totalRedemptions.map(String.init)),
            ("perCustomer", content.perCustomer.map(String.init)),
            ("code", content.code),
        ]
    }
}
