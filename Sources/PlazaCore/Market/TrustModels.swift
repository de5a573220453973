import Foundation

/// Which side of a sale a rating comes from.
public enum DealSide: String, Codable, Sendable, CaseIterable, Hashable {
    case buyer, seller
}

/// `POST /v1/market/listings/{id}/rating`: 1 to 5 stars and a comment, once per side of the listing's handshake.
public struct RatingRequest: Codable, Sendable, Hashable {
    public var stars: Int
    public var comment: String?

    public init(stars: Int, comment: String? = nil) {
        self.stars = stars
        self.comment = comment
    }
}

/// A rating one side of a completed handshake gave the other.
public struct MarketRating: Codable, Sendable, Hashable {
    public var listingId: UUID
    public var listingTitle: String
    /// Who rated, and as which side of the sale.
    public var rater: ListingSeller
    public var role: DealSide
    public var stars: Int
    public var comment: String?
    public var createdAt: Date
    /// When the other side can read it: once both have rated, or 7 days after it was given.
    public var shownAt: Date

    public init(
        listingId: UUID, listingTitle: String, rater: ListingSeller, role: DealSide, stars: Int, comment: String?, createdAt: Date, shownAt: Date
    ) {
        self.listingId = listingId
        self.listingTitle = listingTitle
        self.rater = rater
        self.role = role
        self.stars = stars
        self.comment = comment
        self.createdAt = createdAt
        self.shownAt = shownAt
    }
}

/// `GET /v1/market/listings/{id}/rating`: for a side of its handshake, what they gave and, once shown, what they got.
public struct DealRatings: Codable, Sendable, Hashable {
    /// Whether the caller may still rate (a side of the handshake who has not).
    public var canRate: Bool
    public var mine: MarketRating?
    /// The other side's rating of the caller: nil until it is shown.
    public var theirs: MarketRating?
    /// The other side rated already, but it is not shown yet (rate them to see it).
    public var theirsWaiting: Bool

    public init(canRate: Bool, mine: MarketRating?, theirs: MarketRating?, theirsWaiting: Bool) {
        self.canRate = canRate
        self.mine = mine
        self.theirs = theirs
        self.theirsWaiting = theirsWaiting
    }
}

/// A student's ratings as their profile shows them: only ratings already shown count.
public struct RatingSummary: Codable, Sendable, Hashable {
    /// Nil when there are none.
    public var average: Double?
    public var count: Int

    public init(average: Double?, count: Int) {
        self.average = average
        self.count = count
    }
}

public enum RatingRules {
    public static let stars = 1...5
    public static let commentLength = 0...500
    /// A rating shows once both sides rated, or this long after it was given.
    public static let blindPeriod: TimeInterval = 7 * 86_400

    public static func problems(_ request: RatingRequest) -> [FieldError] {
        var validator = Validator()
        validator.check(stars.contains(request.stars), "stars", "Give 1 to 5 stars.")
        let comment = request.comment?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        validator.check(commentLength.contains(comment.count), "comment", "Keep the comment under \(commentLength.upperBound) characters.")
        return validator.errors
    }
}
