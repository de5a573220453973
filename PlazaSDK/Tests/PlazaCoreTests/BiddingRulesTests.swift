import Foundation
import PlazaCore
import Testing

/// Proxy bidding's price steps: each step a bidder made shows once in the listing's history.
@Suite struct BiddingRulesTests {
    let ana = UUID()
    let ben = UUID()
    let cal = UUID()
    let ends = Date(timeIntervalSince1970: 2_000_000_000)
    var now: Date { ends.addingTimeInterval(-3_600) }

    func place(
        _ state: AuctionState,
        _ bidder: UUID,
        _ max: Int64
    ) throws -> (AuctionState, [(bidder: UUID, amount: Int64, proxy: Bool)]) {
        guard case .placed(let next, let steps) = BiddingRules.bid(state, by: bidder, max: max, now: now) else {
            throw BiddingError.refused
        }
        return (next, steps)
    }

    enum BiddingError: Error { case refused }

    @Test func aProxyBidPushedToItsMaximumIsNotRepeatedWhenOutbid() throws {
        let start = AuctionState(
            startPrice: 1_000,
            reserve: nil,
            currentPrice: 1_000,
            leader: nil,
            leaderMax: 0,
            bidCount: 0,
            endsAt: ends
        )
        var (state, steps) = try place(start, ana, 3_000)
        var history = steps
        // Ben bids 2,950: Ana's proxy answers up to her maximum, 3,000.
        (state, steps) = try place(state, ben, 2_950)
        history += steps
        #expect(state.currentPrice == 3_000 && state.leader == ana)
        // Cal outbids with 5,000: Ana's 3,000 was already shown; the new step is Cal's.
        (state, steps) = try place(state, cal, 5_000)
        history += steps
        #expect(steps.map(\.bidder) == [cal] && state.leader == cal && state.currentPrice == 3_100)
        let anaAtMax = history.filter { $0.bidder == ana && $0.amount == 3_000 }
        #expect(anaAtMax.count == 1, "Ana's proxy bid at 3,000 shows once: \(history.map { ($0.amount, $0.proxy) })")
    }

    @Test func aMaximumNotYetShownAppearsWhenOutbid() throws {
        let start = AuctionState(
            startPrice: 1_000,
            reserve: nil,
            currentPrice: 1_000,
            leader: nil,
            leaderMax: 0,
            bidCount: 0,
            endsAt: ends
        )
        var (state, _) = try place(start, ana, 3_000)
        let steps: [(bidder: UUID, amount: Int64, proxy: Bool)]
        (state, steps) = try place(state, cal, 5_000)
        #expect(
            steps.map(\.bidder) == [ana, cal] && steps.map(\.amount) == [3_000, 3_100]
                && steps.map(\.proxy) == [true, false]
        )
    }
}
