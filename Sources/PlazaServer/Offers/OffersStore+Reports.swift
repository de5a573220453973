import Foundation
import PlazaCore
import SQLKit

/// A row of `offer_reports`: one customer's report of one campaign's offer.
struct OfferReportRecord: Sendable {
    var id: UUID
    var campaignId: UUID
    var userId: UUID
    var reason: OfferReportReason
    var details: String?
    var state: OfferReportState
    var createdAt: Date

    var dto: OfferReport {
        OfferReport(id: id, offerId: campaignId, reason: reason, state: state, createdAt: createdAt)
    }

    static let columns = ["id", "campaign_id", "user_id", "reason", "details", "state", "created_at"]

    init(
        id: UUID = UUID(),
        campaignId: UUID,
        userId: UUID,
        reason: OfferReportReason,
        details: String?,
        state: OfferReportState = .open,
        createdAt: Date
    ) {
        (self.id, self.campaignId, self.userId, self.reason) = (id, campaignId, userId, reason)
        (self.details, self.state, self.createdAt) = (details, state, createdAt)
    }

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        campaignId = try row.decode(column: "campaign_id", as: UUID.self)
        userId = try row.decode(column: "user_id", as: UUID.self)
        reason = OfferReportReason(rawValue: try row.decode(column: "reason", as: String.self)) ?? .other
        details = try row.decode(column: "details", as: String?.self)
        state = OfferReportState(rawValue: try row.decode(column: "state", as: String.self)) ?? .open
        createdAt = try row.decode(column: "created_at", as: Date.self)
    }
}

/// Customers' reports of offers (issue 40).
extension OffersStore {
    /// Files the report unless the person reported this campaign already; answers whether it was new.
    func insertReport(_ report: OfferReportRecord, on db: any SQLDatabase) async throws -> Bool {
        let rows = try await db.insert(into: "offer_reports").columns(OfferReportRecord.columns)
            .values(
                SQLBind(report.id),
                SQLBind(report.campaignId),
                SQLBind(report.userId),
                SQLBind(report.reason.rawValue),
                SQLBind(report.details),
                SQLBind(report.state.rawValue),
                SQLBind(report.createdAt)
            )
            .ignoringConflicts(with: ["campaign_id", "user_id"])
            .returning("id").all()
        return !rows.isEmpty
    }

    func report(campaign: UUID, user: UUID, on db: any SQLDatabase) async throws -> OfferReportRecord? {
        try await db.select().columns(OfferReportRecord.columns.map { SQLIdentifier($0) }).from("offer_reports")
            .where("campaign_id", .equal, campaign).where("user_id", .equal, user)
            .first().map(OfferReportRecord.init(row:))
    }

    /// The campaign's reports no admin decided yet, oldest first: what its open review item gathers.
    func openReports(campaign: UUID, on db: any SQLDatabase) async throws -> [OfferReportRecord] {
        try await db.select().columns(OfferReportRecord.columns.map { SQLIdentifier($0) }).from("offer_reports")
            .where("campaign_id", .equal, campaign).where("state", .equal, OfferReportState.open.rawValue)
            .orderBy("created_at").orderBy("id")
            .all().map(OfferReportRecord.init(row:))
    }

    /// The admin decided the campaign's review item: its open reports are upheld or dismissed with it.
    func decideReports(campaign: UUID, _ state: OfferReportState, on db: any SQLDatabase) async throws {
        try await db.update("offer_reports").set("state", to: state.rawValue)
            .where("campaign_id", .equal, campaign).where("state", .equal, OfferReportState.open.rawValue)
            .run()
    }
}
