import Foundation
import PlazaCore
import PlazaServer

extension ChaosTally {
    /// Every card order's answers against how it ended: each key one answer; at most one key paid it; an order paid
    /// (200) has exactly one `card_order` entry, and one `card_refund` if cancelled after; one never paid has none; an
    /// acknowledged cancel cancelled it.
    mutating func checkOrders(_ run: ChaosRun, services: PlazaServices, say: (String) -> Void) async throws {
        let results = run.orders.get()
        let outcomes = try await services.cardOrderOutcomes(results.values.compactMap(\.order))
        var notSetUp: [String] = []
        for index in results.keys.sorted() {
            guard let result = results[index] else { continue }
            if let failed = result.setUpFailed {
                notSetUp.append(failed)
                if failed.hasSuffix("unanswered") || failed.hasSuffix(": 0") { unanswered += 1 }
            }
            guard let order = result.order, let outcome = outcomes[order] else { continue }
            let name = order.uuidString.lowercased()
            if (result.first + result.second).contains(0) || result.cancel == 0 {
                unanswered += 1
                say(
                    "unanswered card order \(name): pay \(result.first) \(result.second), cancel \(String(describing: result.cancel))"
                )
            }
            for answers in [result.first, result.second] where Set(answers.filter { $0 != 0 }).count > 1 {
                doubled += 1
                say("doubled card order payment \(name): one key, different answers \(answers)")
            }
            let (first, second) = (result.first.contains(200), result.second.contains(200))
            if first, second {
                doubled += 1
                say("doubled card order payment \(name): paid with two keys")
            }
            let answered = !(result.first + result.second).contains(0)
            let paidThen =
                "\(outcome.status.rawValue) with \(outcome.charges) card_order and \(outcome.refunds) card_refund entries"
            if first || second {
                let sound =
                    outcome.charges == 1
                    && (outcome.status == .paid && outcome.refunds == 0
                        || outcome.status == .cancelled && outcome.refunds == 1)
                if !sound {
                    if outcome.charges == 0 || (outcome.status == .cancelled && outcome.refunds == 0) {
                        lost += 1
                    } else {
                        doubled += 1
                    }
                    say(
                        "\(outcome.charges == 0 || outcome.refunds == 0 ? "lost" : "doubled") card order payment \(name): paid, and it is \(paidThen)"
                    )
                }
            } else if answered, outcome.charges + outcome.refunds > 0 || outcome.status == .paid {
                doubled += 1
                say(
                    "doubled card order payment \(name): refused \(result.first) \(result.second), but it is \(paidThen)"
                )
            }
            if result.cancel == 200, outcome.status != .cancelled {
                lost += 1
                say("lost card order cancel \(name): cancelled, but it is \(outcome.status.rawValue)")
            }
        }
        let ended = outcomes.values
        say(
            "chaos: \(results.count) card orders: \(ended.filter { $0.status == .paid }.count) paid, "
                + "\(ended.filter { $0.status == .cancelled && $0.charges > 0 }.count) cancelled and refunded, "
                + "\(ended.filter { $0.status == .cancelled && $0.charges == 0 }.count) cancelled unpaid, "
                + "\(ended.filter { $0.status == .pendingPayment }.count) waiting"
        )
        if !notSetUp.isEmpty {
            say(
                "chaos: \(notSetUp.count) of \(results.count) card orders not placed, such as \(notSetUp.prefix(3).joined(separator: "; "))"
            )
        }
    }
}
