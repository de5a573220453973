import Foundation
import PlazaCore
import SQLKit

/// Bidding's part of `plaza verify`: the auction on each listing row against its price steps (`market_bids`).
///
/// A bid writes its steps at `seq = count * 4 + index`, `count` being the bids before it; a leader raising their own
/// maximum writes no step (unless it meets the reserve). So the steps prove a lower bound of the count, not the count:
/// no more bids in steps than counted, none numbered past the count, at least one step once anyone bid. And the
/// leader: every step is at most the leader's maximum (a step is some bidder's price, never above the winning
/// maximum), the current price is the highest step, and the leader has a step at it (each bid leaves one).
extension BidStore {
    /// `bid_count` and `bid_leader` findings: one query over every auction, only the broken ones come back.
    func findings(on db: any SQLDatabase) async throws -> [VerifyFinding] {
        let rows = try await db.raw(
            """
            SELECT l.id, l.bidding_count, l.bidding_current, l.bidding_leader, l.bidding_leader_max, s.bids, s.last_bid, s.top, k.n AS leader_steps
            FROM listings l
            LEFT JOIN (SELECT listing_id, COUNT(DISTINCT seq / 4) AS bids, MAX(seq / 4) AS last_bid, MAX(amount) AS top FROM market_bids
              GROUP BY listing_id) s ON s.listing_id = l.id
            LEFT JOIN (SELECT b.listing_id, COUNT(*) AS n FROM market_bids b JOIN listings x ON x.id = b.listing_id
              WHERE b.bidder_id = x.bidding_leader AND b.amount = x.bidding_current GROUP BY b.listing_id) k ON k.listing_id = l.id
            WHERE l.bidding_ends_at IS NOT NULL AND (COALESCE(s.bids, 0) > l.bidding_count OR COALESCE(s.last_bid, -1) >= l.bidding_count
              OR (l.bidding_count > 0 AND (s.bids IS NULL OR l.bidding_leader IS NULL OR l.bidding_leader_max IS NULL
                OR s.top > l.bidding_leader_max OR s.top <> l.bidding_current OR k.n IS NULL))
              OR (l.bidding_count = 0 AND l.bidding_leader IS NOT NULL))
            """
        ).all()
        return try rows.flatMap(Self.findings)
    }

    /// What is wrong with one listing the query flagged.
    private static func findings(_ row: any SQLRow) throws -> [VerifyFinding] {
        let id = try row.decode(column: "id", as: UUID.self)
        let count = try row.decode(column: "bidding_count", as: Int.self)
        let bids = try row.decode(column: "bids", as: Int?.self)
        let lastBid = try row.decode(column: "last_bid", as: Int?.self) ?? -1
        let top = try row.decode(column: "top", as: Int64?.self)
        let current = try row.decode(column: "bidding_current", as: Int64?.self)
        let leader = try row.decode(column: "bidding_leader", as: UUID?.self)
        let leaderMax = try row.decode(column: "bidding_leader_max", as: Int64?.self)
        var found: [VerifyFinding] = []
        if let bids, bids > count {
            found.append(VerifyFinding(.bidCount, id, "\(bids) bids have price steps, bidding_count is \(count)"))
        }
        if lastBid >= count {
            found.append(
                VerifyFinding(.bidCount, id, "price steps of bid \(lastBid + 1) are stored, bidding_count is \(count)")
            )
        }
        if count > 0, bids == nil {
            found.append(VerifyFinding(.bidCount, id, "bidding_count is \(count) but no price step is stored"))
        }
        if count == 0, leader != nil { found.append(VerifyFinding(.bidLeader, id, "a leader is set but nobody bid")) }
        guard count > 0, let top else { return found }
        guard let leader, let leaderMax else {
            return found + [VerifyFinding(.bidLeader, id, "\(count) bids but no leader")]
        }
        if top > leaderMax {
            found.append(VerifyFinding(.bidLeader, id, "a step of \(top) is above the leader's maximum \(leaderMax)"))
        }
        if top != current {
            found.append(
                VerifyFinding(.bidLeader, id, "the current price is \(current ?? 0) but the highest step is \(top)")
            )
        }
        if try row.decode(column: "leader_steps", as: Int?.self) == nil {
            let leaderId = leader.uuidString.lowercased()
            found.append(
                VerifyFinding(.bidLeader, id, "the leader \(leaderId) has no step at the current price \(current ?? 0)")
            )
        }
        return found
    }
}
