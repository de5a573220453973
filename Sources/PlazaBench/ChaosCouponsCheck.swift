import Foundation
import PlazaServer

extension ChaosTally {
    /// Every round's answers against the claims stored: each claimer one answer and at most one claim; every claim
    /// acknowledged stored, for its claimer; none stored for a claimer refused; no more than the cap; and nobody refused
    /// while coupons were left.
    mutating func checkClaims(_ run: ChaosRun, services: PlazaServices, say: (String) -> Void) async throws {
        let results = run.rounds.get()
        let campaigns = run.coupons.campaigns
        let stored = try await services.couponClaims(campaigns)
        var (claimed, claimers, notDelivered) = (0, 0, 0)
        for index in results.keys.sorted() {
            guard let result = results[index], case .coupon(let round) = run.work[index] else { continue }
            let campaign = campaigns[round.number]
            let name = campaign.uuidString.lowercased()
            let rows = stored[campaign] ?? []
            (claimed, claimers) = (claimed + rows.count, claimers + round.claimers.count)
            if rows.count > ChaosCoupons.cap {
                doubled += 1
                say("doubled coupon claims \(name): \(rows.count) stored for a cap of \(ChaosCoupons.cap)")
            }
            var refused = false
            for (position, answers) in result.answers.enumerated() {
                let user = run.users[round.claimers[position]].id
                let held = rows.filter { $0.user == user }
                if answers.contains(where: { $0.status == 0 }) {
                    unanswered += 1
                    say("unanswered coupon claim \(name) of \(run.users[round.claimers[position]].username)")
                }
                let answered = answers.filter { $0.status != 0 }
                let ids = Set(answered.compactMap(\.claim))
                if Set(answered.map { $0.status < 300 }).count > 1 || ids.count > 1 || held.count > 1 {
                    doubled += 1
                    say(
                        "doubled coupon claim \(name): one claimer, answers \(answered.map(\.status)), \(held.count) stored"
                    )
                }
                for id in ids where !held.contains(where: { $0.id == id }) {
                    lost += 1
                    say("lost coupon claim \(id.uuidString.lowercased()) of campaign \(name)")
                }
                if !answered.isEmpty, answered.allSatisfy({ $0.status >= 300 }) {
                    // 409 `offer_exhausted` is the race's refusal; anything else is a set-up the harness got wrong.
                    if answered.allSatisfy({ $0.status == 409 }) { refused = true } else { notDelivered += 1 }
                    if !held.isEmpty {
                        doubled += 1
                        say("doubled coupon claim \(name): refused \(answered.map(\.status)), but a claim is stored")
                    }
                }
            }
            if refused, rows.count < ChaosCoupons.cap {
                lost += 1
                say(
                    "lost coupon claim \(name): a claimer was refused while \(rows.count) of \(ChaosCoupons.cap) were taken"
                )
            }
            let strangers = rows.filter { row in !round.claimers.contains { run.users[$0].id == row.user } }
            if !strangers.isEmpty {
                doubled += 1
                say("doubled coupon claims \(name): \(strangers.count) stored for people who never claimed")
            }
        }
        if notDelivered > 0 {
            say("chaos: \(notDelivered) claimers refused otherwise than exhausted: was the campaign delivered to them?")
        }
        say(
            "chaos: \(results.count) coupon rounds: \(claimed) claims for \(claimers) claimers, at most \(ChaosCoupons.cap) a campaign"
        )
    }
}
