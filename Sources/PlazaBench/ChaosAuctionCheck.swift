import Foundation
import PlazaCore
import PlazaServer

extension ChaosTally {
    /// Every auction's answers against how it ended: each key one answer; the auction closed; every acknowledged bid is
    /// in the history, and nobody refused is; the leader's maximum is the highest acknowledged one; a won auction made
    /// exactly one accepted offer, to the leader at the final price, and reserved the item; an auction nobody won, none.
    mutating func checkAuctions(_ run: ChaosRun, services: PlazaServices, say: (String) -> Void) async throws {
        let results = run.auctions.get()
        let outcomes = try await services.auctionOutcomes(
            results.keys.compactMap { index in
                run.work[index].auction.map { run.market.auctions[$0.number] }
            }
        )
        var (bids, won) = (0, 0)
        for index in results.keys.sorted() {
            guard let result = results[index], let auction = run.work[index].auction else { continue }
            let listing = run.market.auctions[auction.number]
            guard let outcome = outcomes[listing] else { continue }
            let name = listing.uuidString.lowercased()
            if result.answers.flatMap({ $0 }).contains(0) || !result.closed {
                unanswered += 1
                say("unanswered auction \(name): bids \(result.answers), closed \(result.closed)")
            }
            for answers in result.answers where Set(answers.filter { $0 != 0 }).count > 1 {
                doubled += 1
                say("doubled bid on \(name): one key, different answers \(answers)")
            }
            var highest: Int64 = 0
            for (position, answers) in result.answers.enumerated() {
                let bidder = run.users[auction.bidders[position]].id
                if answers.contains(201) {
                    bids += 1
                    highest = max(highest, auction.maxima[position])
                    if !outcome.bidders.contains(bidder) {
                        lost += 1
                        say(
                            "lost bid on \(name): \(run.users[auction.bidders[position]].username) was told it was placed"
                        )
                    }
                } else if !answers.contains(0), outcome.bidders.contains(bidder) {
                    doubled += 1
                    say(
                        "doubled bid on \(name): \(run.users[auction.bidders[position]].username) was refused \(answers), but bid"
                    )
                }
            }
            if outcome.leaderMax != highest {
                if outcome.leaderMax < highest { lost += 1 } else { doubled += 1 }
                say(
                    "\(outcome.leaderMax < highest ? "lost" : "doubled") bid on \(name): the leader's maximum is \(outcome.leaderMax), the highest placed \(highest)"
                )
            }
            if !outcome.closed { say("auction \(name) is still open") }
            if let leader = outcome.leader, outcome.closed {
                won += 1
                let sold =
                    outcome.offers.count == 1 && outcome.offers[0].buyer == leader
                    && outcome.offers[0].amount == outcome.currentPrice
                if !sold || outcome.state != .reserved {
                    if outcome.offers.isEmpty { lost += 1 } else { doubled += 1 }
                    say(
                        "\(outcome.offers.isEmpty ? "lost" : "doubled") auction win on \(name): \(outcome.offers.count) offers, the item \(outcome.state.rawValue)"
                    )
                }
            } else if !outcome.offers.isEmpty || outcome.state != .active {
                doubled += 1
                say(
                    "doubled auction win on \(name): nobody won, but \(outcome.offers.count) offers and the item \(outcome.state.rawValue)"
                )
            }
        }
        let answered = results.values.flatMap { $0.answers.compactMap(\.last) }
        let statuses = Dictionary(grouping: answered, by: { $0 }).sorted { $0.key < $1.key }.map {
            "\($0.value.count)× \($0.key)"
        }
        say(
            "chaos: \(results.count) auctions: \(bids) bids placed, \(won) won (answers \(statuses.joined(separator: ", ")))"
        )
    }
}
