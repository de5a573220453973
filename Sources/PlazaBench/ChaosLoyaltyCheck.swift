import Foundation
import PlazaCore
import PlazaServer

extension ChaosTally {
    /// Every card's answers against what is stored: each key one answer; a punch code counted once however many
    /// counters scan it; every counted answer one stored punch, and no punch stored that no answer counted; the card's
    /// count its punches; one redemption for the confirmation acknowledged, none for a card nobody was told was redeemed.
    mutating func checkPunchCards(_ run: ChaosRun, services: PlazaServices, say: (String) -> Void) async throws {
        let results = run.punchCards.get()
        let outcomes = try await services.loyaltyCardOutcomes(results.values.compactMap(\.card))
        var notSetUp: [String] = []
        var (punched, redeemed) = (0, 0)
        for index in results.keys.sorted() {
            guard let result = results[index] else { continue }
            if let failed = result.setUpFailed {
                notSetUp.append(failed)
                if failed.contains("unanswered") { unanswered += 1 }
            }
            guard let card = result.card, let outcome = outcomes[card] else { continue }
            let name = card.uuidString.lowercased()
            let scans = result.scans.flatMap { $0 }
            if scans.flatMap({ $0 }).contains(where: { $0.status == 0 })
                || result.redemptions.flatMap({ $0 }).contains(0)
            {
                unanswered += 1
                say("unanswered loyalty card \(name)")
            }
            for answers in scans where Set(answers.filter { $0.status != 0 }).count > 1 {
                doubled += 1
                say("doubled punch \(name): one key, different answers \(answers)")
            }
            for (number, punch) in result.scans.enumerated()
            where punch.filter({ $0.contains { $0.counted } }).count > 1 {
                doubled += 1
                say("doubled punch \(name): code \(number + 1) counted by two counters")
            }
            let counted = scans.filter { $0.contains { $0.counted } }.count
            punched += counted
            if counted != outcome.punchRows || outcome.punches != outcome.punchRows {
                if counted > outcome.punchRows { lost += 1 } else { doubled += 1 }
                say(
                    "\(counted > outcome.punchRows ? "lost" : "doubled") punch \(name): \(counted) counted, "
                        + "\(outcome.punchRows) stored, the card says \(outcome.punches)"
                )
            }
            for answers in result.redemptions where Set(answers.filter { $0 != 0 }).count > 1 {
                doubled += 1
                say("doubled loyalty redemption \(name): one key, different answers \(answers)")
            }
            let confirmed = result.redemptions.filter { $0.contains(201) }.count
            redeemed += min(confirmed, 1)
            if confirmed > 1 || outcome.redemptions > 1 {
                doubled += 1
                say("doubled loyalty redemption \(name): \(confirmed) confirmed, \(outcome.redemptions) stored")
            } else if confirmed == 1, outcome.redemptions == 0 || outcome.state != .redeemed {
                lost += 1
                say(
                    "lost loyalty redemption \(name): confirmed, but the card is \(outcome.state.rawValue) with no redemption"
                )
            } else if confirmed == 0, !result.redemptions.flatMap({ $0 }).contains(0), outcome.redemptions > 0 {
                doubled += 1
                say("doubled loyalty redemption \(name): refused \(result.redemptions), but redeemed")
            }
        }
        say("chaos: \(results.count) loyalty cards: \(punched) punches counted, \(redeemed) rewards redeemed")
        if !notSetUp.isEmpty {
            say(
                "chaos: \(notSetUp.count) of \(results.count) loyalty cards not played through, such as \(notSetUp.prefix(3).joined(separator: "; "))"
            )
        }
    }
}
