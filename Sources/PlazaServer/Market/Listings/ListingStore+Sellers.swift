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
        let sql: SQLQueryString =
            "SELECT u.id, u.created_at AS seller_since, " + Self.sellerFactsColumns(of: "u.id", now: now)
            + " FROM users u WHERE u.id IN \(SQLBind.group(ids))"
        var facts: [UUID: SellerFacts] = [:]
        for row in try await db.raw(sql).all() {
            facts[try row.decode(column: "id", as: UUID.self)] = try Self.sellerFacts(row)
        }
        return facts
    }

    /// The columns `sellerFacts(_:)` reads, of the seller whose id is the SQL `seller` (beside their `created_at`
    /// as `seller_since`): the feed selects them with its rows, so that a page needs no statement of its own for them.
    static func sellerFactsColumns(of seller: SQLQueryString, now: Date) -> SQLQueryString {
        """
        (SELECT CAST(COUNT(*) AS BIGINT) FROM listings x WHERE x.seller_id = \(seller) AND x.state = 'sold' \
        AND x.sold_to IS NOT NULL) AS seller_sales, \
        (SELECT CAST(COUNT(*) AS BIGINT) FROM market_ratings r WHERE r.ratee_id = \(seller) \
        AND r.shown_at <= \(bind: now)) AS seller_rated, \
        (SELECT CAST(COALESCE(SUM(r.stars), 0) AS BIGINT) FROM market_ratings r WHERE r.ratee_id = \(seller) \
        AND r.shown_at <= \(bind: now)) AS seller_stars
        """
    }

    static func sellerFacts(_ row: any SQLRow) throws -> SellerFacts {
        SellerFacts(
            memberSince: try row.decode(column: "seller_since", as: Date.self),
            sales: try row.decode(column: "seller_sales", as: Int.self),
            rating: RatingSummary(
                count: try row.decode(column: "seller_rated", as: Int.self),
                stars: try row.decode(column: "seller_stars", as: Int.self)
            )
        )
    }
}
