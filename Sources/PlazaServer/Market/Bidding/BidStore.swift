import Foundation
import PlazaCore
import SQLKit

/// All SQL of bidding: the auction lives on its listing row and moves by one conditional update per bid (on the bid
/// count it was read at), so concurrent bids take one order; each bid's price steps follow in the same transaction.
struct BidStore: Sendable {
    /// Moves the auction from the state read (`from` bids counted) to `next`; false when another bid got there first.
    func advance(_ listing: UUID, from count: Int, to next: AuctionState, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("listings").set("bidding_current", to: next.currentPrice).set(
            "bidding_leader",
            to: next.leader
        )
        .set("bidding_leader_max", to: next.leaderMax).set("bidding_count", to: next.bidCount).set(
            "bidding_ends_at",
            to: next.endsAt
        )
        .where("id", .equal, listing).where("bidding_count", .equal, count).where("bidding_closed", .equal, false)
        .returning("id").first() != nil
    }

    func insert(
        steps: [(bidder: UUID, amount: Int64, proxy: Bool)],
        listing: UUID,
        after count: Int,
        now: Date,
        on db: any SQLDatabase
    )
        async throws
    {
        guard !steps.isEmpty else { return }
        var insert = db.insert(into: "market_bids").columns(
            "id",
            "listing_id",
            "bidder_id",
            "amount",
            "proxy",
            "seq",
            "created_at"
        )
        for (index, step) in steps.enumerated() {
            insert = insert.values(
                SQLBind(UUID()),
                SQLBind(listing),
                SQLBind(step.bidder),
                SQLBind(step.amount),
                SQLBind(step.proxy),
                SQLBind(count * 4 + index),
                SQLBind(now)
            )
        }
        try await insert.run()
    }

    /// Every price step, newest first, with the bidders' names.
    func steps(_ listing: UUID, limit: Int, on db: any SQLDatabase) async throws -> [BidStep] {
        try await db.raw(
            """
            SELECT u.username, u.display_name, b.amount, b.proxy, b.created_at FROM market_bids b JOIN users u ON u.id = b.bidder_id
            WHERE b.listing_id = \(bind: listing) ORDER BY b.seq DESC LIMIT \(bind: limit)
            """
        ).all().map {
            BidStep(
                bidder: Person(
                    username: try $0.decode(column: "username", as: String.self),
                    displayName: try $0.decode(column: "display_name", as: String.self)
                )
                .shortName,
                amount: try $0.decode(column: "amount", as: Int64.self),
                proxy: try $0.decode(column: "proxy", as: Bool.self),
                at: try $0.decode(column: "created_at", as: Date.self)
            )
        }
    }

    /// Auctions whose end has passed and that are not closed yet.
    func due(now: Date, limit: Int, on db: any SQLDatabase) async throws -> [UUID] {
        try await db.select().column("id").from("listings").where("bidding_closed", .equal, false).where(
            "bidding_ends_at",
            .lessThanOrEqual,
            now
        )
        .limit(limit).all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    /// Closes an auction whose end has passed, once, as it was read (`count` bids): false when it closed already or a
    /// bid landed since (the winner is decided again from the row as it is now).
    func close(_ listing: UUID, count: Int, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("listings").set("bidding_closed", to: true).where("id", .equal, listing).where(
            "bidding_closed",
            .equal,
            false
        )
        .where("bidding_ends_at", .lessThanOrEqual, now).where("bidding_count", .equal, count).returning("id").first()
            != nil
    }
}
