import Foundation

/// A seller I follow: their new listings notify me (at most once an hour per seller).
public struct MarketFollow: Codable, Sendable, Hashable {
    public var username: String
    public var displayName: String
    public var since: Date

    public init(username: String, displayName: String, since: Date) {
        self.username = username
        self.displayName = displayName
        self.since = since
    }
}

/// A listing on my wish list: a price drop or its sale notifies me.
public struct WishListEntry: Codable, Sendable, Hashable {
    public var listing: Listing
    public var savedAt: Date

    public init(listing: Listing, savedAt: Date) {
        self.listing = listing
        self.savedAt = savedAt
    }
}

/// How a saved search tells me of new matches: at once, or in one daily digest.
public enum SavedSearchAlert: String, Codable, Sendable, CaseIterable, Hashable {
    case instant, daily
}

/// `POST /v1/market/saved-searches`: the feed's filters (at least one) and how to be told.
public struct SavedSearchRequest: Codable, Sendable, Hashable {
    public var q: String?
    public var category: String?
    public var condition: ListingCondition?
    public var minPrice: Int64?
    public var maxPrice: Int64?
    public var alert: SavedSearchAlert

    public init(
        q: String? = nil,
        category: String? = nil,
        condition: ListingCondition? = nil,
        minPrice: Int64? = nil,
        maxPrice: Int64? = nil,
        alert: SavedSearchAlert = .instant
    ) {
        self.q = q
        self.category = category
        self.condition = condition
        self.minPrice = minPrice
        self.maxPrice = maxPrice
        self.alert = alert
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        q = try container.decodeUnlessNull(String.self, forKey: .q)
        category = try container.decodeUnlessNull(String.self, forKey: .category)
        condition = try container.decodeUnlessNull(ListingCondition.self, forKey: .condition)
        minPrice = try container.decodeUnlessNull(Int64.self, forKey: .minPrice)
        maxPrice = try container.decodeUnlessNull(Int64.self, forKey: .maxPrice)
        alert = try container.decodeUnlessNull(SavedSearchAlert.self, forKey: .alert) ?? .instant
    }

    /// The feed query it stands for.
    public var query: ListingQuery {
        ListingQuery(text: q, category: category, condition: condition, minPrice: minPrice, maxPrice: maxPrice)
    }
}

/// A saved search of mine.
public struct SavedSearch: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var q: String?
    public var category: String?
    public var condition: ListingCondition?
    public var minPrice: Int64?
    public var maxPrice: Int64?
    public var alert: SavedSearchAlert
    public var createdAt: Date

    public init(id: UUID, _ request: SavedSearchRequest, createdAt: Date) {
        self.id = id
        q = request.q
        category = request.category
        condition = request.condition
        minPrice = request.minPrice
        maxPrice = request.maxPrice
        alert = request.alert
        self.createdAt = createdAt
    }

    public var request: SavedSearchRequest {
        SavedSearchRequest(
            q: q,
            category: category,
            condition: condition,
            minPrice: minPrice,
            maxPrice: maxPrice,
            alert: alert
        )
    }
}

public enum FollowRules {
    /// A follower hears of a seller's new listings at most this often.
    public static let followAlertInterval: TimeInterval = 3_600
    /// A daily digest goes out at most this often per saved search.
    public static let digestInterval: TimeInterval = 86_400
    public static let savedSearchesPerUser = 20

    /// Whether a listing (its indexed words, category, condition and price) matches a feed query, as the feed's full-text
    /// search would (`ListingSearch`): `words` are the listing's indexed terms.
    public static func matches(
        _ query: ListingQuery,
        words: [String],
        category: String,
        condition: ListingCondition,
        price: Int64?
    ) -> Bool {
        if let wanted = query.category, wanted != category { return false }
        if let wanted = query.condition, wanted != condition { return false }
        let amount = price ?? 0
        if let low = query.minPrice, amount < low { return false }
        if let high = query.maxPrice, amount > high { return false }
        return ListingSearch.matches(ListingSearch.clauses(query.text ?? ""), terms: words)
    }

    /// A saved search says what it looks for: "desk · furniture · up to $50.00" (amounts formatted by the caller).
    public static func problems(_ request: SavedSearchRequest) -> [FieldError] {
        var validator = Validator()
        let empty =
            (request.q?.trimmingCharacters(in: .whitespaces).isEmpty ?? true) && request.category == nil
            && request.condition == nil
            && request.minPrice == nil && request.maxPrice == nil
        validator.check(!empty, "q", "Search for something first: words, a category, a condition or a price.")
        validator.check((request.q ?? "").count <= 200, "q", "Use at most 200 characters.")
        validator.check((request.minPrice ?? 0) >= 0, "minPrice", "Use 0 or more.")
        validator.check((request.maxPrice ?? 0) >= 0, "maxPrice", "Use 0 or more.")
        return validator.errors
    }
}

/// One line of my selling or buying history.
public struct MarketSale: Codable, Sendable, Hashable {
    public var listing: Listing
    /// The buyer (my sales) or the seller (my purchases); nil when sold elsewhere.
    public var counterpart: ListingSeller?
    /// The agreed price (an accepted offer's, else the listing's); nil when free.
    public var price: Money?
    public var paidThroughPlaza: Bool
    public var soldAt: Date

    public init(listing: Listing, counterpart: ListingSeller?, price: Money?, paidThroughPlaza: Bool, soldAt: Date) {
        self.listing = listing
        self.counterpart = counterpart
        self.price = price
        self.paidThroughPlaza = paidThroughPlaza
        self.soldAt = soldAt
    }
}
