import Foundation
import PlazaCore
import PlazaServer

extension ChaosTally {
    /// Every deal's answers against how it ended: a payment acknowledged (201) is held on the open accepted offer,
    /// released on the completed one or refunded on the called-off one, by exactly one entry each; a payment refused
    /// moved nothing; a confirmed handshake completed the deal, an acknowledged cancel cancelled it, never both.
    mutating func checkDeals(_ run: ChaosRun, services: PlazaServices, say: (String) -> Void) async throws {
        let results = run.deals.get()
        let outcomes = try await services.dealOutcomes(results.values.compactMap(\.offer))
        var notSetUp: [String] = []
        for index in results.keys.sorted() {
            guard let result = results[index] else { continue }
            if let failed = result.setUpFailed {
                notSetUp.append(failed)
                if failed.hasSuffix("unanswered") { unanswered += 1 }
            }
            guard let offer = result.offer, let outcome = outcomes[offer] else { continue }
            let name = offer.uuidString.lowercased()
            let answers = [result.pays.contains(0), result.cancel == 0, result.shown == 0, result.confirmed == 0]
            if answers.contains(true) {
                unanswered += 1
                say(
                    "unanswered market deal \(name): pay \(result.pays), cancel \(String(describing: result.cancel)), handshake "
                        + "\(String(describing: result.shown)) \(String(describing: result.confirmed))"
                )
            }
            check(payment: result, outcome, name, say: say)
            if result.confirmed == 200, outcome.state != .completed {
                lost += 1
                say("lost market handshake \(name): confirmed, but the offer is \(outcome.state.rawValue)")
            }
            if result.cancel == 200, outcome.state != .cancelled {
                lost += 1
                say("lost market cancel \(name): called off, but the offer is \(outcome.state.rawValue)")
            }
            if result.confirmed == 200, result.cancel == 200 {
                doubled += 1
                say("doubled market deal \(name): both the handshake and the cancel were acknowledged")
            }
        }
        let ended = outcomes.values
        let count = { (state: PriceOfferState) in ended.filter { $0.state == state }.count }
        let payments = { (state: DealPaymentState) in ended.filter { $0.payment == state }.count }
        say(
            "chaos: \(results.count) deals: \(count(.completed)) sold, \(count(.cancelled)) called off, \(count(.accepted)) open; "
                + "\(payments(.released)) paid and released, \(payments(.refunded)) refunded, \(payments(.held)) held"
        )
        if !notSetUp.isEmpty {
            say(
                "chaos: \(notSetUp.count) of \(results.count) deals not set up, such as \(notSetUp.prefix(3).joined(separator: "; "))"
            )
        }
    }

    /// The deal's money against what its key was answered.
    private mutating func check(
        payment result: ChaosDeal.Result,
        _ outcome: DealOutcome,
        _ name: String,
        say: (String) -> Void
    ) {
        let answered = result.pays.filter { $0 != 0 }
        let paid = answered.contains(201)
        if Set(answered).count > 1 {
            doubled += 1
            say("doubled market payment \(name): one key, different answers \(result.pays)")
        }
        let settled = outcome.releases + outcome.refunds
        if paid {
            let expected: Bool =
                switch outcome.payment {
                case .held: outcome.state == .accepted && outcome.holds == 1 && settled == 0
                case .released:
                    outcome.state == .completed && outcome.holds == 1 && outcome.releases == 1 && outcome.refunds == 0
                case .refunded:
                    [.cancelled, .declined].contains(outcome.state) && outcome.holds == 1 && outcome.refunds == 1
                        && outcome.releases == 0
                case nil: false
                }
            guard !expected else { return }
            if outcome.payment == nil || outcome.holds == 0 { lost += 1 } else { doubled += 1 }
            say(
                "\(outcome.payment == nil || outcome.holds == 0 ? "lost" : "doubled") market payment \(name): paid, and the offer is "
                    + "\(outcome.state.rawValue), its payment \(outcome.payment?.rawValue ?? "none"), with \(outcome.holds) hold, "
                    + "\(outcome.releases) release and \(outcome.refunds) refund entries"
            )
        } else if !answered.isEmpty || result.pays.isEmpty, outcome.holds + settled > 0 || outcome.payment != nil {
            // Refused (or never asked): nothing may have moved.
            doubled += 1
            say(
                "doubled market payment \(name): \(result.pays.isEmpty ? "never paid" : "refused \(answered)"), but its payment is "
                    + "\(outcome.payment?.rawValue ?? "none") with \(outcome.holds) hold entries"
            )
        }
    }
}
