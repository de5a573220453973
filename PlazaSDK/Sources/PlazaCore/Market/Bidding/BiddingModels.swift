import Foundation

/// `ListingRequest.biddable`: a listing sold by bidding, from its `price` (the start) until `endsAt`; below
/// `reservePrice` nobody wins.
public struct BiddingTerms: Codable, Sendable, Hashable {
    public var reservePrice: Int64?
    public var endsAt: Date

    public init(reservePrice: Int64? = nil, endsAt: Date) {
        self.reservePrice = reservePrice
        self.endsAt = endsAt
    }
}

/// `Listing.bidding`: where the bidding stands, as the reader sees it.
public struct Bidding: Codable, Sendable, Hashable {
    public var currentPrice: Int64
    public var bidCount: Int
    public var reserveMet: Bool
    public var endsAt: Date
    /// Whether the reader leads (false for anyone else, and for the seller).
    public var leading: Bool
    /// The bidding ended (the winner, if any, has an accepted offer at the final price).
    public var closed: Bool
    /// The least a new bid from someone else must offer as its maximum.
    public var minimumBid: Int64

    public init(
        currentPrice: Int64,
        bidCount: Int,
        reserveMet: Bool,
        endsAt: Date,
        leading: Bool,
        closed: Bool,
        minimumBid: Int64
    ) {
        self.currentPrice = currentPrice
        self.bidCount = bidCount
        self.reserveMet = reserveMet
        self.endsAt = endsAt
        self.leading = leading
        self.closed = closed
        self.minimumBid = minimumBid
    }
}

/// `POST /v1/market/listings/{id}/bids`: the most I would pay; Plaza bids for me up to it.
public struct BidRequest: Codable, Sendable, Hashable {
    public var maxAmount: Int64

    public init(maxAmount: Int64) {
        self.maxAmount = maxAmount
    }
}

/// The answer to a bid: my maximum, whether I lead, and the price now.
public struct PlacedBid: Codable, Sendable, Hashable {
    public var id: UUID
    public var maxAmount: Int64
    public var leading: Bool
    public var currentPrice: Int64
    public var endsAt: Date

    public init(id: UUID, maxAmount: Int64, leading: Bool, currentPrice: Int64, endsAt: Date) {
        self.id = id
        self.maxAmount = maxAmount
        self.leading = leading
        self.currentPrice = currentPrice
        self.endsAt = endsAt
    }
}

/// One price step of `GET /v1/market/listings/{id}/bids`: a bid, or Plaza bidding for someone up to their maximum.
public struct BidStep: Codable, Sendable, Hashable {
    /// "Ben T.": bidders are named the short way.
    public var bidder: String
    public var amount: Int64
    public var proxy: Bool
    public var at: Date

    public init(bidder: String, amount: Int64, proxy: Bool, at: Date) {
        self.bidder = bidder
        self.amount = amount
        self.proxy = proxy
        self.at = at
    }
}

/// Where an auction stands, as stored.
public struct AuctionState: Sendable, Hashable {
    public var startPrice: Int64
    public var reserve: Int64?
    public var currentPrice: Int64
    public var leader: UUID?
    public var leaderMax: Int64
    public var bidCount: Int
    public var endsAt: Date

    public init(
        startPrice: Int64,
        reserve: Int64?,
        currentPrice: Int64,
        leader: UUID?,
        leaderMax: Int64,
        bidCount: Int,
        endsAt: Date
    ) {
        self.startPrice = startPrice
        self.reserve = reserve
        self.currentPrice = currentPrice
        self.leader = leader
        self.leaderMax = leaderMax
        self.bidCount = bidCount
        self.endsAt = endsAt
    }

    public var reserveMet: Bool { leader != nil && currentPrice >= (reserve ?? 0) }
}

/// Proxy bidding: each bidder names the most they would pay, and the price rises only as far as the second highest
/// maximum needs (plus one increment); a bid in the last two minutes moves the end two minutes on.
public enum BiddingRules {
    public static let softClose: TimeInterval = 2 * 60
    public static let shortest: TimeInterval = 60
    public static let longest: TimeInterval = 30 * 86_400

    /// The step a new bid must beat the current price by.
    public static func increment(_ price: Int64) -> Int64 {
        switch price {
        case ..<5_000: 100
        case ..<25_000: 250
        case ..<100_000: 500
        default: 1_000
        }
    }

    /// The least maximum a bid by someone other than the leader must name.
    public static func minimum(_ state: AuctionState) -> Int64 {
        state.leader == nil ? state.startPrice : state.currentPrice + increment(state.currentPrice)
    }

    /// What a bid does: the new state and the price steps it makes (oldest first), or why it is refused.
    public enum Outcome: Equatable, Sendable {
        case placed(AuctionState, steps: [(bidder: UUID, amount: Int64, proxy: Bool)])
        case tooLow(minimum: Int64)
        case ended

        public static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            switch (lhs, rhs) {
            case (.placed(let a, let x), .placed(let b, let y)):
                a == b && x.map(\.bidder) == y.map(\.bidder) && x.map(\.amount) == y.map(\.amount)
                    && x.map(\.proxy) == y.map(\.proxy)
            case (.tooLow(let a), .tooLow(let b)): a == b
            case (.ended, .ended): true
            default: false
            }
        }
    }

    public static func bid(_ state: AuctionState, by bidder: UUID, max: Int64, now: Date) -> Outcome {
        guard now < state.endsAt else { return .ended }
        var next = state
        var steps: [(bidder: UUID, amount: Int64, proxy: Bool)] = []
        if let leader = state.leader, leader == bidder {
            // The leader raises their maximum: the price moves only to meet the reserve.
            guard max > state.leaderMax else { return .tooLow(minimum: state.leaderMax + 1) }
            next.leaderMax = max
            if let reserve = state.reserve, state.currentPrice < reserve, max >= reserve {
                next.currentPrice = reserve
                steps.append((bidder, reserve, false))
            }
        } else if let leader = state.leader {
            let least = minimum(state)
            guard max >= least else { return .tooLow(minimum: least) }
            if max > state.leaderMax {
                // A new leader: the old one's maximum is spent (a step of its own unless the price already stands
                // there: one proxy bid shows once in the history), the price is one step above it.
                if state.currentPrice < state.leaderMax { steps.append((leader, state.leaderMax, true)) }
                next.currentPrice = Swift.min(max, state.leaderMax + increment(state.leaderMax))
                (next.leader, next.leaderMax) = (bidder, max)
                steps.append((bidder, next.currentPrice, false))
            } else {
                // The leader's proxy answers, up to their maximum.
                steps.append((bidder, max, false))
                next.currentPrice = Swift.min(state.leaderMax, max + increment(max))
                steps.append((leader, next.currentPrice, true))
            }
        } else {
            guard max >= state.startPrice else { return .tooLow(minimum: state.startPrice) }
            (next.leader, next.leaderMax, next.currentPrice) = (bidder, max, state.startPrice)
            steps.append((bidder, state.startPrice, false))
        }
        // A maximum that meets the reserve takes the price to it at once.
        if let reserve = next.reserve, next.currentPrice < reserve, next.leaderMax >= reserve {
            next.currentPrice = reserve
            if let leader = next.leader { steps.append((leader, reserve, true)) }
        }
        next.bidCount += 1
        if state.endsAt.timeIntervalSince(now) <= softClose { next.endsAt = state.endsAt.addingTimeInterval(softClose) }
        return .placed(next, steps: steps)
    }

    /// Field problems of bidding terms given the start price.
    public static func problems(_ terms: BiddingTerms, start: Int64?, now: Date) -> [FieldError] {
        var validator = Validator()
        validator.check(start != nil, "price", "A listing sold by bidding needs a start price.")
        validator.check(
            terms.endsAt >= now.addingTimeInterval(shortest),
            "biddable.endsAt",
            "End the bidding at least a minute from now."
        )
        validator.check(
            terms.endsAt <= now.addingTimeInterval(longest),
            "biddable.endsAt",
            "End the bidding within 30 days."
        )
        if let reserve = terms.reservePrice {
            validator.check(
                reserve >= (start ?? 0),
                "biddable.reservePrice",
                "The reserve is at least the start price."
            )
            validator.add(WalletRules.amountError(reserve, field: "biddable.reservePrice"))
        }
        return validator.errors
    }
}
