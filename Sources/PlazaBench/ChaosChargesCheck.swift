import Foundation
import PlazaCore
import PlazaServer

extension ChaosTally {
    /// Every charge's answers against how it ended: each key one answer; at most one key approved it; an approved charge
    /// has exactly one `charge` entry and was not also cancelled or declined; a refused one has none; every refund
    /// acknowledged is one `refund` entry, the refunds fit in the charge, and none was refused while there was room.
    mutating func checkCharges(_ run: ChaosRun, services: PlazaServices, say: (String) -> Void) async throws {
        let results = run.charges.get()
        let outcomes = try await services.chargeOutcomes(results.values.compactMap(\.charge))
        var notSetUp: [String] = []
        var refunded = 0
        for index in results.keys.sorted() {
            guard let result = results[index], case .charge(let charge) = run.work[index] else { continue }
            if let failed = result.setUpFailed {
                notSetUp.append(failed)
                if failed.contains("unanswered") { unanswered += 1 }
            }
            guard let id = result.charge, let outcome = outcomes[id] else { continue }
            let name = id.uuidString.lowercased()
            let all = result.first + result.second + result.refunds.flatMap { $0 } + (result.ended.map { [$0] } ?? [])
            if all.contains(0) {
                unanswered += 1
                say(
                    "unanswered charge \(name): approve \(result.first) \(result.second), end \(String(describing: result.ended)), refunds \(result.refunds)"
                )
            }
            for answers in [result.first, result.second] + result.refunds
            where Set(answers.filter { $0 != 0 }).count > 1 {
                doubled += 1
                say("doubled charge \(name): one key, different answers \(answers)")
            }
            let approved = [result.first, result.second].filter { $0.contains(200) }.count
            let state =
                "\(outcome.status.rawValue) with \(outcome.payments) charge and \(outcome.refunds) refund entries"
            if approved > 1 || (approved == 1 && result.ended == 200) {
                doubled += 1
                say("doubled charge \(name): approved \(approved == 1 ? "and ended" : "twice"); it is \(state)")
            }
            let paid = outcome.status == .approved || outcome.status == .refunded
            if approved == 1, outcome.payments != 1 || !paid {
                if outcome.payments == 0 || !paid { lost += 1 } else { doubled += 1 }
                say(
                    "\(outcome.payments == 0 || !paid ? "lost" : "doubled") charge payment \(name): approved, and it is \(state)"
                )
            } else if approved == 0, !all.contains(0), outcome.payments > 0 || paid {
                doubled += 1
                say("doubled charge payment \(name): never approved, but it is \(state)")
            }
            if result.ended == 200, paid {
                lost += 1
                say("lost charge end \(name): \(charge.race) answered 200, but it is \(state)")
            }
            let made = result.refunds.filter { $0.contains(200) }.count
            refunded += made
            if made != outcome.refunds || outcome.refundedAmount != Int64(outcome.refunds) * charge.refundAmount {
                if made > outcome.refunds { lost += 1 } else { doubled += 1 }
                say(
                    "\(made > outcome.refunds ? "lost" : "doubled") charge refund \(name): \(made) acknowledged of \(charge.refundAmount), it is \(state), \(outcome.refundedAmount) refunded"
                )
            }
            if outcome.refundedAmount > outcome.amount {
                doubled += 1
                say("doubled charge refund \(name): \(outcome.refundedAmount) refunded of \(outcome.amount)")
            }
            let room = Int(outcome.amount / max(1, charge.refundAmount))
            if result.refunds.contains(where: { !$0.contains(200) && !$0.contains(0) }),
                made < min(room, charge.refunds)
            {
                lost += 1
                say(
                    "lost charge refund \(name): a refund was refused while \(outcome.refundedAmount) of \(outcome.amount) was refunded"
                )
            }
        }
        let ended = outcomes.values
        say(
            "chaos: \(results.count) charges: \(ended.filter { $0.payments == 1 }.count) paid, \(refunded) refunds, "
                + "\(ended.filter { $0.status == .cancelled }.count) cancelled, \(ended.filter { $0.status == .declined }.count) declined"
        )
        if !notSetUp.isEmpty {
            say(
                "chaos: \(notSetUp.count) of \(results.count) charges not made, such as \(notSetUp.prefix(3).joined(separator: "; "))"
            )
        }
    }
}
