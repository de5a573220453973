import Foundation
import PlazaCore

extension PlazaClient {
    // MARK: Ratings

    /// Rates the other side of a listing's confirmed handshake, once; it shows once they rated too, or in a week.
    public func rateDeal(listing: UUID, stars: Int, comment: String? = nil) async throws -> MarketRating {
        try await send(
            "POST",
            "v1/market/listings/\(listing)/rating",
            body: RatingRequest(stars: stars, comment: comment),
            auth: .required
        )
    }

    /// What I gave and got for a sale (theirs once shown).
    public func dealRatings(listing: UUID) async throws -> DealRatings {
        try await send("GET", "v1/market/listings/\(listing)/rating", auth: .required)
    }

    /// A student's shown ratings, newest first.
    public func marketRatings(_ username: String, cursor: String? = nil) async throws -> Page<MarketRating> {
        try await send(
            "GET",
            "v1/market/users/\(username)/ratings",
            query: cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [],
            auth: .required
        )
    }
}

extension PlazaClient {
    // MARK: Reports and appeals

    /// Reports a listing, a student or a conversation to the admins (optionally blocking them in the same step).
    public func report(_ request: ReportRequest) async throws -> MarketReport {
        try await send("POST", "v1/market/reports", body: request, auth: .required)
    }

    /// The admins' decisions about me, with their statements of reasons.
    public func moderationDecisions() async throws -> [ModerationDecision] {
        let page: Page<ModerationDecision> = try await send("GET", "v1/market/me/decisions", auth: .required)
        return page.items
    }

    /// Appeals a decision about me, once.
    public func appeal(decision: UUID, text: String) async throws -> ModerationDecision {
        try await send(
            "POST",
            "v1/market/me/decisions/\(decision)/appeal",
            body: AppealRequest(text: text),
            auth: .required
        )
    }
}

extension PlazaClient {
    // MARK: Follows, the wish list, saved searches

    /// Follows a seller: their new listings notify me (at most once an hour per seller).
    public func follow(_ username: String) async throws -> MarketFollow {
        try await send("PUT", "v1/market/follows/\(username)", auth: .required)
    }

    public func unfollow(_ username: String) async throws {
        try await sendVoid("DELETE", "v1/market/follows/\(username)", auth: .required)
    }

    public func follows() async throws -> [MarketFollow] {
        let page: Page<MarketFollow> = try await send("GET", "v1/market/follows", auth: .required)
        return page.items
    }

    /// Saves a listing: a price drop or its sale notifies me.
    public func saveListing(_ id: UUID) async throws -> WishListEntry {
        try await send("PUT", "v1/market/wish-list/\(id)", auth: .required)
    }

    public func unsaveListing(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/market/wish-list/\(id)", auth: .required)
    }

    public func wishList() async throws -> [WishListEntry] {
        let page: Page<WishListEntry> = try await send("GET", "v1/market/wish-list", auth: .required)
        return page.items
    }

    /// Saves a search: new matches notify me at once or in a daily digest.
    public func saveSearch(_ request: SavedSearchRequest) async throws -> SavedSearch {
        try await send("POST", "v1/market/saved-searches", body: request, auth: .required)
    }

    public func savedSearches() async throws -> [SavedSearch] {
        let page: Page<SavedSearch> = try await send("GET", "v1/market/saved-searches", auth: .required)
        return page.items
    }

    public func deleteSavedSearch(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/market/saved-searches/\(id)", auth: .required)
    }
}

extension PlazaClient {
    // MARK: History

    /// My sold listings, newest first, with the buyer, the agreed price and whether it went through Plaza.
    public func mySales(cursor: String? = nil) async throws -> Page<MarketSale> {
        try await send(
            "GET",
            "v1/market/me/sales",
            query: cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [],
            auth: .required
        )
    }

    /// What I bought, newest first.
    public func myPurchases(cursor: String? = nil) async throws -> Page<MarketSale> {
        try await send(
            "GET",
            "v1/market/me/purchases",
            query: cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [],
            auth: .required
        )
    }
}

extension PlazaClient {
    /// Changes my marketplace bio and profile photo (a picture from `uploadPicture`).
    public func updateMarketProfile(_ change: MarketProfileChange) async throws -> MarketProfile {
        try await send("PATCH", "v1/market/me/profile", body: change, auth: .required)
    }
}
