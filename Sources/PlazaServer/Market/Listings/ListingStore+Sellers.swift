import Foundation
import PlazaCore
import SQLKit

/// What a listing shows of its seller beyond their name (issue 39): their rating, since when they are on Plaza, and
/// their sales.
extension ListingStore {
    struct SellerFacts: Sendable {
        var memberSince: Date
        /// Their listings sold to someone on Plaza (not those marked sold elsewhere).
        var sales: Int
        /// The ratings shown by `now`, as their profile counts them.
        var rating: RatingSummary
    }

    /// The facts of these sellers, in one statement whatever their number: a feed page reads its sellers at once.
    func sellerFacts(_ sellers: [UUID], now: Date, on db: any SQLDatabase) async throws -> [UUID: SellerFacts] {
        let ids = Array(Set(sellers))
        guard !ids.isEmpty else { return [:] }
        let sql: SQLQueryString = """
            SELECT u.id, u.created_at,
            (SELECT CAST(COUNT(*) AS BIGINT) FROM listings x WHERE x.seller_id = u.id AND x.state = 'sold'
            AND x.sold_to IS NOT NULL) AS sales,
            (SELECT CAST(COUNT(*) AS BIGINT) FROM market_ratings r WHERE r.ratee_id = u.id
            AND r.shown_at <= \(bind: now)) AS rated,
            (SELECT CAST(COALESCE(SUM(r.stars), 0) AS BIGINT) FROM market_ratings r WHERE r.ratee_id = u.id
            AND r.shown_at <= \(bind: now)) AS stars
            FROM users u WHERE u.id IN \(SQLBind.group(ids))
            """
        var facts: [UUID: SellerFacts] = [:]
        for row in try await db.raw(sql).all() {
            facts[try row.decode(column: "id", as: UUID.self)] = SellerFacts(
                memberSince: try row.decode(column: "created_at", as: Date.self),
                sales: try row.decode(column: "sales", as: Int.self),
                rating: RatingSummary(
                    count: try row.decode(column: "rated", as: Int.self),
                    stars: try row.decode(column: "stars", as: Int.self)
                )
            )
        }
        return facts
    }
}
