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
        listingId: UUID,
        listingTitle: String,
        rater: ListingSeller,
        role: DealSide,
        stars: Int,
        comment: String?,
        createdAt: Date,
        shownAt: Date
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
    /// Nil (`null`) when there are none.
    public var average: Double?
    public var count: Int

    public init(average: Double?, count: Int) {
        self.average = average
        self.count = count
    }

    /// The summary of `count` shown ratings of `stars` stars in all: the average to one decimal.
    public init(count: Int, stars: Int) {
        self.init(average: count == 0 ? nil : (Double(stars) / Double(count) * 10).rounded() / 10, count: count)
    }

    /// `average` is written as `null` without ratings, so that a reader tells "none" from a field it does not know.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(average, forKey: .average)
        try container.encode(count, forKey: .count)
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
        validator.check(
            commentLength.contains(comment.count),
            "comment",
            "Keep the comment under \(commentLength.upperBound) characters."
        )
        return validator.errors
    }
}

/// Why a student reports a listing, a student or a conversation.
public enum ReportReason: String, Codable, Sendable, CaseIterable, Hashable {
    case fakeUser = "fake_user"
    case spam, scam
    case prohibitedItem = "prohibited_item"
    case harassment

    public var label: String {
        switch self {
        case .fakeUser: "A fake user"
        case .spam: "Spam"
        case .scam: "A scam"
        case .prohibitedItem: "An item not allowed here"
        case .harassment: "Harassment"
        }
    }
}

/// `POST /v1/market/reports`: one of `listingId`, `username` or `conversationId`, why, and whether to block them too.
public struct ReportRequest: Codable, Sendable, Hashable {
    public var listingId: UUID?
    public var username: String?
    public var conversationId: UUID?
    public var reason: ReportReason
    public var details: String?
    public var block: Bool?

    public init(
        listingId: UUID? = nil,
        username: String? = nil,
        conversationId: UUID? = nil,
        reason: ReportReason,
        details: String? = nil,
        block: Bool? = nil
    ) {
        self.listingId = listingId
        self.username = username
        self.conversationId = conversationId
        self.reason = reason
        self.details = details
        self.block = block
    }
}

/// `open` until an admin decides: `upheld` (with an action) or `dismissed`.
public enum ReportState: String, Codable, Sendable, CaseIterable, Hashable {
    case open, upheld, dismissed
}

/// A report as its reporter sees it.
public struct MarketReport: Codable, Sendable, Hashable {
    public var id: UUID
    public var state: ReportState
    public var reason: ReportReason
    /// The reported student's username (never their campus address).
    public var reported: String
    public var listingId: UUID?
    public var blocked: Bool
    public var createdAt: Date

    public init(
        id: UUID,
        state: ReportState,
        reason: ReportReason,
        reported: String,
        listingId: UUID?,
        blocked: Bool,
        createdAt: Date
    ) {
        self.id = id
        self.state = state
        self.reason = reason
        self.reported = reported
        self.listingId = listingId
        self.blocked = blocked
        self.createdAt = createdAt
    }
}

/// `open`, then `granted` (the action is undone) or `denied`.
public enum AppealState: String, Codable, Sendable, CaseIterable, Hashable {
    case open, granted, denied
}

/// An admin's decision about me (a report against me was upheld): what was done, the statement of reasons, my appeal.
public struct ModerationDecision: Codable, Sendable, Hashable {
    /// The report's id: appeal at `/v1/market/me/decisions/{id}/appeal`.
    public var id: UUID
    public var action: ReviewAction
    public var reason: ReportReason
    public var statement: String
    public var listingTitle: String?
    public var decidedAt: Date
    public var canAppeal: Bool
    public var appeal: Appeal?

    public struct Appeal: Codable, Sendable, Hashable {
        public var text: String
        public var state: AppealState
        public var reason: String?
        public var at: Date

        public init(text: String, state: AppealState, reason: String?, at: Date) {
            self.text = text
            self.state = state
            self.reason = reason
            self.at = at
        }
    }

    public init(
        id: UUID,
        action: ReviewAction,
        reason: ReportReason,
        statement: String,
        listingTitle: String?,
        decidedAt: Date,
        canAppeal: Bool,
        appeal: Appeal?
    ) {
        self.id = id
        self.action = action
        self.reason = reason
        self.statement = statement
        self.listingTitle = listingTitle
        self.decidedAt = decidedAt
        self.canAppeal = canAppeal
        self.appeal = appeal
    }
}

/// `POST /v1/market/me/decisions/{id}/appeal`: why the decision is wrong, once.
public struct AppealRequest: Codable, Sendable, Hashable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}

extension RatingRules {
    public static let reportDetailsLength = 0...1_000
    public static let appealLength = 1...2_000
}
