import Foundation
import PlazaCore
import SQLKit

/// A listing as a benchmark or an import loads it, without photos or alerts.
package struct ImportedListing: Sendable {
    package var seller: UUID
    package var title: String
    package var description: String
    package var price: Int64?
    package var category: String
    package var condition: ListingCondition
    package var createdAt: Date
    /// Sold by bidding from `price`, with no reserve, until then.
    package var biddingEndsAt: Date?

    package init(
        seller: UUID,
        title: String,
        description: String,
        price: Int64?,
        category: String,
        condition: ListingCondition,
        createdAt: Date,
        biddingEndsAt: Date? = nil
    ) {
        (self.seller, self.title, self.description, self.price) = (seller, title, description, price)
        (self.category, self.condition, self.createdAt, self.biddingEndsAt) = (
            category, condition, createdAt, biddingEndsAt
        )
    }
}

/// Bulk loading and bare queries, for `plaza bench market`: never a route.
extension MarketService {
    /// Loads listings into `campus`, indexed for search, in one transaction; answers their ids.
    @discardableResult
    package func importListings(_ imported: [ImportedListing], campus: UUID) async throws -> [UUID] {
        let users = AccountStore()
        var names: [UUID: (String, String)] = [:]
        for seller in Set(imported.map(\.seller)) {
            if let user = try await users.user(id: seller, on: database.sql) {
                names[seller] = (user.username, user.displayName)
            }
        }
        let records = imported.map { listing in
            ListingStore.Record(
                id: UUID(),
                campusId: campus,
                sellerId: listing.seller,
                state: .active,
                title: listing.title,
                description: listing.description,
                price: listing.price,
                currency: listing.price == nil ? nil : currency,
                category: listing.category,
                condition: listing.condition,
                photoIds: [],
                soldTo: nil,
                createdAt: listing.createdAt,
                updatedAt: listing.createdAt,
                sellerUsername: names[listing.seller]?.0 ?? "",
                sellerName: names[listing.seller]?.1 ?? "",
                auction: listing.biddingEndsAt.map { endsAt in
                    let start = listing.price ?? 0
                    return AuctionState(
                        startPrice: start,
                        reserve: nil,
                        currentPrice: start,
                        leader: nil,
                        leaderMax: 0,
                        bidCount: 0,
                        endsAt: endsAt
                    )
                }
            )
        }
        let (listings, bodies) = (listings, records.map(Self.searchBody))
        let (plain, biddable) = (
            records.indices.filter { records[$0].auction == nil }, records.indices.filter { records[$0].auction != nil }
        )
        try await database.transaction { db in
            try await listings.insertMany(plain.map { records[$0] }, bodies: plain.map { bodies[$0] }, on: db)
            for index in biddable { try await listings.insert(records[index], searchBody: bodies[index], on: db) }
        }
        return records.map(\.id)
    }

    /// The feed's query alone, straight on the database (a benchmark's peer for `GET /v1/market/listings`): how many
    /// rows it returns.
    package func feedRows(campus: UUID, viewer: UUID, _ query: ListingQuery, limit: Int) async throws -> Int {
        try await listings.feed(
            campus: campus,
            viewer: viewer,
            query,
            agreement: MarketRules.agreementVersion,
            limit: limit,
            offset: 0,
            on: database.sql
        ).count
    }
}
