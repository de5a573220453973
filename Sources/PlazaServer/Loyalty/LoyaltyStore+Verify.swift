import Foundation
import SQLKit

/// Loyalty's part of `plaza verify`: every card's punch count against the punches counted on it, scanned or paid for.
extension LoyaltyStore {
    /// `punch_count`: a card's `punches` equals the punches its rows in `loyalty_punches` added plus what payments earned on it (net of
    /// refunds, `loyalty_payment_punches`), and no token counts twice for one holder
    /// (the unique index `loyalty_punches_token` says so; a database restored without it would not). Only broken cards
    /// come back; a token counted twice names the least of its cards, compared as text (PostgreSQL has no MIN of a uuid).
    func punchFindings(on db: any SQLDatabase) async throws -> [VerifyFinding] {
        let counts = try await db.raw(
            """
            SELECT c.id, c.punches, COALESCE(p.n, 0) + COALESCE(q.n, 0) AS counted FROM loyalty_cards c
            LEFT JOIN (SELECT card_id, SUM(punches) AS n FROM loyalty_punches GROUP BY card_id) p ON p.card_id = c.id
            LEFT JOIN (
                SELECT card_id, SUM(punches_added - taken_back) AS n FROM loyalty_payment_punches GROUP BY card_id
            ) q ON q.card_id = c.id
            WHERE c.punches <> COALESCE(p.n, 0) + COALESCE(q.n, 0)
            """
        ).all()
        var found = try counts.map { row in
            VerifyFinding(
                .punchCount,
                try row.decode(column: "id", as: UUID.self),
                "punch count is \(try row.decode(column: "punches", as: Int.self)), \(try row.decode(column: "counted", as: Int.self)) punches are counted"
            )
        }
        let twice = try await db.raw(
            """
            SELECT MIN(CAST(card_id AS TEXT)) AS card_id, COUNT(*) AS n FROM loyalty_punches GROUP BY user_id, token_hash HAVING COUNT(*) > 1
            """
        ).all()
        for row in twice {
            found.append(
                VerifyFinding(
                    kind: .punchCount,
                    id: try row.decode(column: "card_id", as: String.self).lowercased(),
                    message: "a token was counted \(try row.decode(column: "n", as: Int.self)) times"
                )
            )
        }
        return found
    }
}
