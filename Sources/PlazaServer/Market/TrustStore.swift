import Foundation
import PlazaCore
import SQLKit

/// All SQL of ratings and reports on the marketplace.
struct TrustStore: Sendable {
    // MARK: Ratings

    /// Records a rating once per rater and listing (false: they rated it already). When the other side has rated
    /// too, both show from now on.
    func rate(
        listing: UUID, rater: UUID, ratee: UUID, role: DealSide, stars: Int, comment: String?, now: Date, on db: any SQLDatabase
    ) async throws -> Bool {
        let inserted = try await db.insert(into: "market_ratings")
            .columns("listing_id", "rater_id", "ratee_id", "role", "stars", "comment", "created_at", "shown_at")
            .values(
                SQLBind(listing), SQLBind(rater), SQLBind(ratee), SQLBind(role.rawValue), SQLBind(stars), SQLBind(comment), SQLBind(now),
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
    func ratings(of ratee: UUID, now: Date, limit: Int, offset: Int, on db: any SQLDatabase) async throws -> [MarketRating] {
        try await db.raw(
            Self.ratingSelect
                + " WHERE r.ratee_id = \(bind: ratee) AND r.shown_at <= \(bind: now) ORDER BY r.shown_at DESC, r.listing_id LIMIT \(bind: limit) OFFSET \(bind: offset)"
        ).all().map(Self.rating)
    }

    /// The average and count of the ratings `ratee` got that are shown by `now`.
    func summary(of ratee: UUID, now: Date, on db: any SQLDatabase) async throws -> RatingSummary {
        let row = try await db.select()
            .column(SQLRaw("CAST(COUNT(*) AS BIGINT)"), as: "n").column(SQLRaw("CAST(COALESCE(SUM(stars), 0) AS BIGINT)"), as: "total")
            .from("market_ratings").where("ratee_id", .equal, ratee).where("shown_at", .lessThanOrEqual, now).first()
        let count = try row?.decode(column: "n", as: Int.self) ?? 0
        let total = try row?.decode(column: "total", as: Int.self) ?? 0
        return RatingSummary(average: count == 0 ? nil : (Double(total) / Double(count) * 10).rounded() / 10, count: count)
    }

    static func rating(_ row: any SQLRow) throws -> MarketRating {
        MarketRating(
            listingId: try row.decode(column: "listing_id", as: UUID.self), listingTitle: try row.decode(column: "title", as: String.self),
            rater: ListingSeller(
                username: try row.decode(column: "username", as: String.self), displayName: try row.decode(column: "display_name", as: String.self)),
            role: DealSide(rawValue: try row.decode(column: "role", as: String.self)) ?? .buyer, stars: try row.decode(column: "stars", as: Int.self),
            comment: try row.decode(column: "comment", as: String?.self), createdAt: try row.decode(column: "created_at", as: Date.self),
            shownAt: try row.decode(column: "shown_at", as: Date.self))
    }
}
