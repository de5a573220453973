import Foundation
import PlazaCore
import SQLKit

/// How an auction ended, as `plaza bench chaos` compares it with the answers its bidders got: whether it closed, where
/// it stood, who has price steps in its history, and the offers the close made.
package struct AuctionOutcome: Sendable {
    package var closed: Bool
    package var state: ListingState
    package var leader: UUID?
    package var leaderMax: Int64
    package var currentPrice: Int64
    /// Everyone with a step in the bid history (their own bids, and the leader's proxy steps).
    package var bidders: Set<UUID>
    /// The offers on the listing: the winner's, at the final price, when it sold.
    package var offers: [(buyer: UUID, amount: Int64)]
}

extension BidStore {
    /// Who has steps in the history of `listing`.
    func bidders(_ listing: UUID, on db: any SQLDatabase) async throws -> Set<UUID> {
        Set(
            try await db.select().distinct().column("bidder_id").from("market_bids").where(
                "listing_id",
                .equal,
                listing
            ).all()
                .map { try $0.decode(column: "bidder_id", as: UUID.self) }
        )
    }
}

extension PlazaServices {
    /// How each auction of `ids` that exists ended.
    package func auctionOutcomes(_ ids: [UUID]) async throws -> [UUID: AuctionOutcome] {
        let db = database.sql
        var outcomes: [UUID: AuctionOutcome] = [:]
        for id in ids {
            guard let listing = try await ListingStore().listing(id, on: db), let auction = listing.auction else {
                continue
            }
            outcomes[id] = AuctionOutcome(
                closed: listing.auctionClosed,
                state: listing.state,
                leader: auction.leader,
                leaderMax: auction.leaderMax,
                currentPrice: auction.currentPrice,
                bidders: try await BidStore().bidders(id, on: db),
                offers: try await DealStore().offers(listing: id, on: db).map { ($0.buyerId, $0.amount) }
            )
        }
        return outcomes
    }
}
