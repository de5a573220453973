import Foundation

/// One month of a program's figures (`GET /v1/businesses/{id}/loyalty/analytics`). A count that covers fewer than 5
/// customers is `nil`: "fewer than 5" (0 is shown, it tells nothing about anyone), and so are the figures made from it.
public struct LoyaltyMonth: Codable, Sendable, Hashable {
    /// `2026-11`, in the time zone of the answer.
    public var month: String
    /// Punches counted.
    public var punches: Int?
    /// Cards customers took (a level's next card, started by a full one, is not new).
    public var newCards: Int?
    public var completedCards: Int?
    public var redemptions: Int?
    /// Redemptions ÷ completed cards, 0 to 1 (a reward may be redeemed in a later month).
    public var redemptionRate: Double?
    /// Customers punched this month who had been punched in an earlier one.
    public var returningCustomers: Int?
    /// From taking a card to filling it, over the cards completed this month, to 0.1 day.
    public var averageDaysToComplete: Double?

    public init(
        month: String,
        punches: Int? = 0,
        newCards: Int? = 0,
        completedCards: Int? = 0,
        redemptions: Int? = 0,
        redemptionRate: Double? = nil,
        returningCustomers: Int? = 0,
        averageDaysToComplete: Double? = nil
    ) {
        self.month = month
        self.punches = punches
        self.newCards = newCards
        self.completedCards = completedCards
        self.redemptions = redemptions
        self.redemptionRate = redemptionRate
        self.returningCustomers = returningCustomers
        self.averageDaysToComplete = averageDaysToComplete
    }
}

/// A program's months, oldest first.
public struct LoyaltyAnalytics: Codable, Sendable, Hashable {
    public var programId: UUID
    /// The time zone the months are cut in (the caller's, or UTC).
    public var timeZone: String
    public var months: [LoyaltyMonth]

    public init(programId: UUID, timeZone: String, months: [LoyaltyMonth]) {
        self.programId = programId
        self.timeZone = timeZone
        self.months = months
    }
}

/// How a program's months are counted, the same wherever they are shown.
public enum LoyaltyAnalyticsRules {
    /// Fewer distinct customers than this, and a figure is not shown.
    public static let minimumCustomers = 5
    public static let months = 1...24

    /// What happened to a program, as the store reads it.
    public struct Facts: Sendable {
        public var punches: [(customer: UUID, at: Date)]
        public var cards: [(customer: UUID, level: Int, createdAt: Date, completedAt: Date?)]
        public var redemptions: [(customer: UUID, at: Date)]

        public init(
            punches: [(customer: UUID, at: Date)],
            cards: [(customer: UUID, level: Int, createdAt: Date, completedAt: Date?)],
            redemptions: [(customer: UUID, at: Date)]
        ) {
            self.punches = punches
            self.cards = cards
            self.redemptions = redemptions
        }
    }

    /// The last `count` months up to `now`'s, oldest first, cut in `zone`.
    public static func months(_ facts: Facts, count: Int, now: Date, zone: TimeZone) -> [LoyaltyMonth] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let current = calendar.dateInterval(of: .month, for: now)?.start ?? now
        let starts = (0..<count).reversed().compactMap { calendar.date(byAdding: .month, value: -$0, to: current) }
        func key(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month], from: date)
            return String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
        }
        let firstMonth = Dictionary(facts.punches.map { ($0.customer, key($0.at)) }, uniquingKeysWith: min)
        let punches = Dictionary(grouping: facts.punches) { key($0.at) }
        let taken = Dictionary(grouping: facts.cards.filter { $0.level == 1 }) { key($0.createdAt) }
        let completed = Dictionary(grouping: facts.cards.compactMap { card in card.completedAt.map { (card, $0) } }) {
            key($0.1)
        }
        let redeemed = Dictionary(grouping: facts.redemptions) { key($0.at) }
        return starts.map { start in
            let month = key(start)
            let punched = punches[month] ?? []
            let returning = Set(punched.map(\.customer)).filter { (firstMonth[$0] ?? month) < month }
            let full = completed[month] ?? []
            let rewards = redeemed[month] ?? []
            let completedCount = shown(full.count, people: Set(full.map(\.0.customer)).count)
            let redemptionCount = shown(rewards.count, people: Set(rewards.map(\.customer)).count)
            var rate: Double?
            if let done = completedCount, let given = redemptionCount, done > 0 {
                rate = (Double(given) / Double(done) * 1_000).rounded() / 1_000
            }
            var days: Double?
            if completedCount ?? 0 > 0 {
                let total = full.reduce(0.0) { $0 + $1.1.timeIntervalSince($1.0.createdAt) / 86_400 }
                days = (total / Double(full.count) * 10).rounded() / 10
            }
            return LoyaltyMonth(
                month: month,
                punches: shown(punched.count, people: Set(punched.map(\.customer)).count),
                newCards: shown(taken[month]?.count ?? 0, people: Set((taken[month] ?? []).map(\.customer)).count),
                completedCards: completedCount,
                redemptions: redemptionCount,
                redemptionRate: rate,
                returningCustomers: shown(returning.count, people: returning.count),
                averageDaysToComplete: days
            )
        }
    }

    /// A count as it may be shown: 0, or one over at least 5 distinct customers; nil otherwise ("fewer than 5").
    public static func shown(_ count: Int, people: Int) -> Int? {
        count == 0 || people >= minimumCustomers ? count : nil
    }
}

/// A customer who lets a business see their own history there (`GET /v1/businesses/{id}/loyalty/regulars`).
public struct LoyaltyRegular: Codable, Sendable, Hashable {
    /// The customer's username.
    public var customer: String
    public var displayName: String
    /// Punches counted at the business, on all its programs.
    public var punches: Int
    public var rewards: Int
    public var lastVisit: Date?

    public init(customer: String, displayName: String, punches: Int, rewards: Int, lastVisit: Date?) {
        self.customer = customer
        self.displayName = displayName
        self.punches = punches
        self.rewards = rewards
        self.lastVisit = lastVisit
    }
}

/// `PUT /v1/me/loyalty-sharing/{businessId}`: whether the business may see the caller's own card history.
public struct LoyaltySharing: Codable, Sendable, Hashable {
    public var businessId: UUID
    public var share: Bool

    public init(businessId: UUID, share: Bool) {
        self.businessId = businessId
        self.share = share
    }
}

/// The body of `PUT /v1/me/loyalty-sharing/{businessId}`.
public struct LoyaltySharingRequest: Codable, Sendable, Hashable {
    public var share: Bool

    public init(share: Bool) {
        self.share = share
    }
}
