import Foundation
import PlazaCore
import SQLKit

/// All SQL of ratings and reports on the marketplace.
struct TrustStore: Sendable {
    // MARK: Ratings

    /// Records a rating once per rater and listing (false: they rated it already). When the other side has rated
    /// too, both show from now on.
    func rate(
        listing: UUID,
        rater: UUID,
        ratee: UUID,
        role: DealSide,
        stars: Int,
        comment: String?,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        let inserted = try await db.insert(into: "market_ratings")
            .columns("listing_id", "rater_id", "ratee_id", "role", "stars", "comment", "created_at", "shown_at")
            .values(
                SQLBind(listing),
                SQLBind(rater),
                SQLBind(ratee),
                SQLBind(role.rawValue),
                SQLBind(stars),
                SQLBind(comment),
                SQLBind(now),
                SQLBind(now.addingTimeInterval(RatingRules.blindPeriod))
            )
            .ignoringConflicts(with: ["listing_id", "rater_id"]).returning("listing_id").all()
        guard !inserted.isEmpty else { return false }
        let other = try await db.select().column("rater_id").from("market_ratings").where("listing_id", .equal, listing)
            .where("rater_id", .equal, ratee).first()
        if other != nil {
            try await db.update("market_ratings").set("shown_at", to: now).where("listing_id", .equal, listing)
                .where("shown_at", .greaterThan, now).run()
        }
        return true
    }

    private static let ratingSelect: SQLQueryString = """
        SELECT r.listing_id, l.title, r.rater_id, r.ratee_id, u.username, u.display_name, r.role, r.stars, r.comment, r.created_at, r.shown_at
        FROM market_ratings r JOIN users u ON u.id = r.rater_id JOIN listings l ON l.id = r.listing_id
        """

    /// The ratings given about a listing's sale, by rater.
    func ratings(listing: UUID, on db: any SQLDatabase) async throws -> [(rater: UUID, rating: MarketRating)] {
        try await db.raw(Self.ratingSelect + " WHERE r.listing_id = \(bind: listing)").all().map {
            (try $0.decode(column: "rater_id", as: UUID.self), try Self.rating($0))
        }
    }

    /// The ratings `ratee` got that are shown by `now`, newest first.
    func ratings(
        of ratee: UUID,
        now: Date,
        limit: Int,
        offset: Int,
        on db: any SQLDatabase
    ) async throws -> [MarketRating] {
        try await db.raw(
            Self.ratingSelect
                + " WHERE r.ratee_id = \(bind: ratee) AND r.shown_at <= \(bind: now) ORDER BY r.shown_at DESC, r.listing_id LIMIT \(bind: limit) OFFSET \(bind: offset)"
        ).all().map(Self.rating)
    }

    /// The average and count of the ratings `ratee` got that are shown by `now`.
    func summary(of ratee: UUID, now: Date, on db: any SQLDatabase) async throws -> RatingSummary {
        let row = try await db.select()
            .column(SQLRaw("CAST(COUNT(*) AS BIGINT)"), as: "n").column(
                SQLRaw("CAST(COALESCE(SUM(stars), 0) AS BIGINT)"),
                as: "total"
            )
            .from("market_ratings").where("ratee_id", .equal, ratee).where("shown_at", .lessThanOrEqual, now).first()
        let count = try row?.decode(column: "n", as: Int.self) ?? 0
        let total = try row?.decode(column: "total", as: Int.self) ?? 0
        return RatingSummary(count: count, stars: total)
    }

    static func rating(_ row: any SQLRow) throws -> MarketRating {
        MarketRating(
            listingId: try row.decode(column: "listing_id", as: UUID.self),
            listingTitle: try row.decode(column: "title", as: String.self),
            rater: ListingSeller(
                username: try row.decode(column: "username", as: String.self),
                displayName: try row.decode(column: "display_name", as: String.self)
            ),
            role: DealSide(rawValue: try row.decode(column: "role", as: String.self)) ?? .buyer,
            stars: try row.decode(column: "stars", as: Int.self),
            comment: try row.decode(column: "comment", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            shownAt: try row.decode(column: "shown_at", as: Date.self)
        )
    }
}

extension TrustStore {
    struct ReportRecord: Sendable {
        var id: UUID
        var reporterId: UUID
        var reportedUserId: UUID
        var listingId: UUID?
        var conversationId: UUID?
        var reason: ReportReason
        var details: String?
        var state: ReportState
        var action: ReviewAction?
        var statement: String?
        var decidedAt: Date?
        var appealText: String?
        var appealState: AppealState?
        var appealReason: String?
        var appealedAt: Date?
        var createdAt: Date
    }

    private static let reportColumns = [
        "id", "reporter_id", "reported_user_id", "listing_id", "conversation_id", "reason", "details", "state",
        "action", "statement", "decided_at",
        "appeal_text", "appeal_state", "appeal_reason", "appealed_at", "created_at",
    ]

    func insert(_ report: ReportRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "market_reports")
            .columns(
                "id",
                "reporter_id",
                "reported_user_id",
                "listing_id",
                "conversation_id",
                "reason",
                "details",
                "state",
                "created_at"
            )
            .values(
                SQLBind(report.id),
                SQLBind(report.reporterId),
                SQLBind(report.reportedUserId),
                SQLBind(report.listingId),
                SQLBind(report.conversationId),
                SQLBind(report.reason.rawValue),
                SQLBind(report.details),
                SQLBind(report.state.rawValue),
                SQLBind(report.createdAt)
            )
            .run()
    }

    func report(_ id: UUID, on db: any SQLDatabase) async throws -> ReportRecord? {
        try await db.select().columns(Self.reportColumns.map { SQLIdentifier($0) }).from("market_reports").where(
            "id",
            .equal,
            id
        ).first()
            .map(Self.report)
    }

    /// The upheld reports about `user`, newest first: the decisions they read and may appeal.
    func decisions(about user: UUID, on db: any SQLDatabase) async throws -> [ReportRecord] {
        try await db.select().columns(Self.reportColumns.map { SQLIdentifier($0) }).from("market_reports")
            .where("reported_user_id", .equal, user).where("state", .equal, ReportState.upheld.rawValue)
            .orderBy("decided_at", .descending).limit(100).all().map(Self.report)
    }

    /// How many reports about `user` were upheld (the admin reads it beside a new one).
    func upheldCount(about user: UUID, on db: any SQLDatabase) async throws -> Int {
        try await db.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n").from("market_reports")
            .where("reported_user_id", .equal, user).where("state", .equal, ReportState.upheld.rawValue).first()?
            .decode(column: "n", as: Int.self)
            ?? 0
    }

    /// Records the admin's decision on an open report, once.
    func decide(
        report id: UUID,
        upheld: Bool,
        action: ReviewAction?,
        statement: String?,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.update("market_reports").set("state", to: (upheld ? ReportState.upheld : .dismissed).rawValue)
            .set("action", to: action?.rawValue).set("statement", to: statement).set("decided_at", to: now)
            .where("id", .equal, id).where("state", .equal, ReportState.open.rawValue).returning("id").first() != nil
    }

    /// Files the one appeal against an upheld report; false when it was appealed already (or is not upheld).
    func appeal(report id: UUID, text: String, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("market_reports").set("appeal_text", to: text).set(
            "appeal_state",
            to: AppealState.open.rawValue
        )
        .set("appealed_at", to: now).where("id", .equal, id).where("state", .equal, ReportState.upheld.rawValue)
        .where("appeal_text", .is, SQLLiteral.null).returning("id").first() != nil
    }

    /// Records the decision on an open appeal, once.
    func decide(appeal id: UUID, granted: Bool, reason: String?, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("market_reports").set(
            "appeal_state",
            to: (granted ? AppealState.granted : .denied).rawValue
        )
        .set("appeal_reason", to: reason).where("id", .equal, id).where(
            "appeal_state",
            .equal,
            AppealState.open.rawValue
        )
        .returning("id").first() != nil
    }

    static func report(_ row: any SQLRow) throws -> ReportRecord {
        ReportRecord(
            id: try row.decode(column: "id", as: UUID.self),
            reporterId: try row.decode(column: "reporter_id", as: UUID.self),
            reportedUserId: try row.decode(column: "reported_user_id", as: UUID.self),
            listingId: try row.decode(column: "listing_id", as: UUID?.self),
            conversationId: try row.decode(column: "conversation_id", as: UUID?.self),
            reason: ReportReason(rawValue: try row.decode(column: "reason", as: String.self)) ?? .spam,
            details: try row.decode(column: "details", as: String?.self),
            state: ReportState(rawValue: try row.decode(column: "state", as: String.self)) ?? .open,
            action: try row.decode(column: "action", as: String?.self).flatMap(ReviewAction.init(rawValue:)),
            statement: try row.decode(column: "statement", as: String?.self),
            decidedAt: try row.decode(column: "decided_at", as: Date?.self),
            appealText: try row.decode(column: "appeal_text", as: String?.self),
            appealState: try row.decode(column: "appeal_state", as: String?.self).flatMap(AppealState.init(rawValue:)),
            appealReason: try row.decode(column: "appeal_reason", as: String?.self),
            appealedAt: try row.decode(column: "appealed_at", as: Date?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }
}
