import Foundation

/// One day of a campaign's figures, or its totals (`date` nil). A count from 1 to 4 is nil ("fewer than 5": 0 tells
/// nothing about anyone), and so is the discount given when the redemptions behind it are.
public struct CampaignDayStats: Codable, Sendable, Hashable {
    /// `YYYY-MM-DD` in the operator's time zone; nil for the totals.
    public var date: String?
    public var delivered: Int?
    public var opened: Int?
    public var claimed: Int?
    public var redeemed: Int?
    /// Minor units of the campaign's currency.
    public var discountGiven: Int64?

    public init(date: String?, delivered: Int?, opened: Int?, claimed: Int?, redeemed: Int?, discountGiven: Int64?) {
        self.date = date
        self.delivered = delivered
        self.opened = opened
        self.claimed = claimed
        self.redeemed = redeemed
        self.discountGiven = discountGiven
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(date, forKey: .date)
        try container.encode(delivered, forKey: .delivered)
        try container.encode(opened, forKey: .opened)
        try container.encode(claimed, forKey: .claimed)
        try container.encode(redeemed, forKey: .redeemed)
        try container.encode(discountGiven, forKey: .discountGiven)
    }
}

/// `GET /v1/campaigns/{id}/stats`: the campaign's totals and its days, oldest first, from its first delivery to today.
public struct CampaignStats: Codable, Sendable, Hashable {
    public var campaignId: UUID
    public var currency: String
    public var totals: CampaignDayStats
    public var days: [CampaignDayStats]

    public init(campaignId: UUID, currency: String, totals: CampaignDayStats, days: [CampaignDayStats]) {
        self.campaignId = campaignId
        self.currency = currency
        self.totals = totals
        self.days = days
    }
}

/// How a campaign's figures are counted and withheld, the same for the API and the page.
public enum CampaignStatsRules {
    /// A count under this is not shown.
    public static let minimumCount = 5

    /// What happened, as the store reads it: deliveries (and when each was opened), claims (and when redeemed, for how much).
    public struct Facts: Sendable {
        public var deliveries: [(at: Date, openedAt: Date?)]
        public var claims: [(at: Date, redeemedAt: Date?, discount: Int64?)]

        public init(
            deliveries: [(at: Date, openedAt: Date?)],
            claims: [(at: Date, redeemedAt: Date?, discount: Int64?)]
        ) {
            self.deliveries = deliveries
            self.claims = claims
        }
    }

    /// The days from the first delivery to `now`'s (at most `maximumDays`, the latest), cut in `calendar`'s zone.
    public static func stats(
        _ facts: Facts,
        calendar: Calendar,
        now: Date,
        maximumDays: Int = 92
    ) -> (totals: CampaignDayStats, days: [CampaignDayStats]) {
        func key(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let delivered = Dictionary(grouping: facts.deliveries.map(\.at), by: key).mapValues(\.count)
        let opened = Dictionary(grouping: facts.deliveries.compactMap(\.openedAt), by: key).mapValues(\.count)
        let claimed = Dictionary(grouping: facts.claims.map(\.at), by: key).mapValues(\.count)
        let redemptions = facts.claims.compactMap { claim in claim.redeemedAt.map { ($0, claim.discount ?? 0) } }
        let redeemed = Dictionary(grouping: redemptions, by: { key($0.0) })
        var days: [CampaignDayStats] = []
        if let first = facts.deliveries.map(\.at).min() {
            var day = calendar.startOfDay(
                for: max(first, calendar.date(byAdding: .day, value: -(maximumDays - 1), to: now) ?? first)
            )
            while day <= now {
                let date = key(day)
                let given = redeemed[date] ?? []
                days.append(
                    row(
                        date: date,
                        delivered: delivered[date] ?? 0,
                        opened: opened[date] ?? 0,
                        claimed: claimed[date] ?? 0,
                        redeemed: given.count,
                        discount: given.reduce(0) { $0 + $1.1 }
                    )
                )
                guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
                day = next
            }
        }
        let totals = row(
            date: nil,
            delivered: facts.deliveries.count,
            opened: facts.deliveries.filter { $0.openedAt != nil }.count,
            claimed: facts.claims.count,
            redeemed: redemptions.count,
            discount: redemptions.reduce(0) { $0 + $1.1 }
        )
        return (totals, days)
    }

    static func row(
        date: String?,
        delivered: Int,
        opened: Int,
        claimed: Int,
        redeemed: Int,
        discount: Int64
    ) -> CampaignDayStats {
        let shown = { (count: Int) in count == 0 || count >= minimumCount ? count : nil }
        return CampaignDayStats(
            date: date,
            delivered: shown(delivered),
            opened: shown(opened),
            claimed: shown(claimed),
            redeemed: shown(redeemed),
            discountGiven: shown(redeemed) == nil ? nil : discount
        )
    }
}
