import Foundation
import PlazaCore
import PlazaServer

/// One auction of the workload: three or four people bid on a seller's biddable listing at once (each naming their
/// maximum with a key, sent once, twice at once or again later) while the run closes it, as if its end had come.
struct ChaosAuction: Sendable {
    var number: Int
    /// The seller and the bidders: market people.
    var seller: Int
    var bidders: [Int]
    /// Each bidder's maximum: all different, so that the leader is never a tie.
    var maxima: [Int64]
    var styles: [ChaosBench.Operation.Style]
    var keys: [String]
    /// Milliseconds after the bids start that the close is sent.
    var closeAfter: Int

    /// Every bidder's answers (0: none even after every retry), and whether the run's close went through.
    struct Result: Sendable {
        var answers: [[Int]] = []
        var closed = false
    }
}

extension ChaosRun {
    /// The bids and the close, all at once.
    func auction(_ auction: ChaosAuction) async -> ChaosAuction.Result {
        let listing = market.auctions[auction.number]
        async let closed = close(listing, after: auction.closeAfter)
        let answers = await withTaskGroup(of: (Int, [Int]).self) { group in
            for (index, bidder) in auction.bidders.enumerated() {
                let (token, key) = (users[bidder].token, auction.keys[index])
                let body = Self.json(BidRequest(maxAmount: auction.maxima[index]))
                group.addTask {
                    let sent = await self.sent(auction.styles[index]) {
                        await self.call("/v1/market/listings/\(listing)/bids", token: token, key: key, body: body)?
                            .status ?? 0
                    }
                    return (index, sent)
                }
            }
            var answers = Array(repeating: [Int](), count: auction.bidders.count)
            for await (index, sent) in group { answers[index] = sent }
            return answers
        }
        return ChaosAuction.Result(answers: answers, closed: await closed)
    }

    /// Closes the auction after `milliseconds`, and again until it is closed (a bid landing during a close's read sends
    /// it back, as the sweep would); false when it never closed.
    private func close(_ listing: UUID, after milliseconds: Int) async -> Bool {
        try? await Task.sleep(for: .milliseconds(milliseconds))
        for _ in 0..<200 {
            if await closeAuction(listing) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
