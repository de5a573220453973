import Foundation
import PlazaCore
import SQLKit

/// Listings as the API and the pages read them: the record's fields, the reader's bidding, and what the seller's
/// profile says of them (rating, member since, sales), read for a whole page of listings in one statement.
extension MarketService {
    /// The listing as `viewer` reads it, with its seller's facts; `db` inside a transaction.
    func view(
        _ record: ListingStore.Record,
        viewer: UUID?,
        now: Date,
        on db: (any SQLDatabase)? = nil
    ) async throws -> Listing {
        try await views([record], viewer: viewer, now: now, on: db)[0]
    }

    /// Listings as `viewer` reads them: one statement for all their sellers, never one per listing.
    func views(
        _ records: [ListingStore.Record],
        viewer: UUID?,
        now: Date,
        on db: (any SQLDatabase)? = nil
    ) async throws -> [Listing] {
        // Read with the listings (the feed), or here in one statement for all that were not.
        let unread = records.filter { $0.sellerFacts == nil }.map(\.sellerId)
        let facts = try await listings.sellerFacts(unread, now: now, on: db ?? database.sql)
        return records.map { record in
            var listing = Self.dto(record, viewer: viewer)
            if let seller = record.sellerFacts ?? facts[record.sellerId] {
                listing.seller.rating = seller.rating
                listing.seller.memberSince = seller.memberSince
                listing.seller.sales = seller.sales
            }
            return listing
        }
    }

    static func subject(_ id: UUID) -> String { "listing:\(id.uuidString.lowercased())" }

    /// What full-text search reads: the terms (`ListingSearch`) of the title, the description and the seller's names.
    static func searchBody(_ record: ListingStore.Record) -> String {
        ListingSearch.terms(
            "\(record.title) \(record.description) \(record.sellerUsername) \(record.sellerName)",
            limit: 400
        )
        .joined(separator: " ")
    }

    static func request(_ record: ListingStore.Record) -> ListingRequest {
        ListingRequest(
            title: record.title,
            description: record.description,
            price: record.price.flatMap { amount in record.currency.map { Money(amount: amount, currency: $0) } },
            free: record.price == nil ? true : nil,
            category: record.category,
            condition: record.condition,
            photoIds: record.photoIds
        )
    }

    static func dto(_ record: ListingStore.Record) -> Listing {
        dto(record, viewer: nil)
    }

    /// The listing as `viewer` reads it (whether they lead its bidding).
    static func dto(_ record: ListingStore.Record, viewer: UUID?) -> Listing {
        Listing(
            id: record.id,
            state: record.state,
            title: record.title,
            description: record.description,
            price: record.price.flatMap { amount in record.currency.map { Money(amount: amount, currency: $0) } },
            free: record.price == nil,
            category: record.category,
            condition: record.condition,
            photos: record.photoIds.map(MediaService.photo),
            seller: ListingSeller(username: record.sellerUsername, displayName: record.sellerName),
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
            soldTo: record.buyerUsername,
            bidding: bidding(record, viewer: viewer)
        )
    }
}
