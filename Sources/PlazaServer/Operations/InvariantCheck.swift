import Foundation
import PlazaCore
import SQLKit

/// `plaza verify`: every cross-domain invariant, each domain's SQL in its store's `+Verify` file, gathered here.
enum InvariantCheck {
    /// Every check once, on `db` (reads only).
    static func findings(_ services: PlazaServices, on db: any SQLDatabase) async throws -> [VerifyFinding] {
        var found = try await services.wallet.ledger.findings(on: db)
        found += try await DealStore().strayHolds(on: db)
        found += try await escrowTotals(services, on: db)
        found += try await CardsStore().paymentFindings(on: db)
        found += try await OffersStore().claimFindings(on: db)
        found += try await OffersStore().stoppedClaimFindings(on: db)
        found += try await OffersStore().redemptionFindings(on: db)
        found += try await LoyaltyStore().punchFindings(on: db)
        found += try await BidStore().findings(on: db)
        found += try await answers(services, on: db)
        return found
    }

    /// `escrow_total`: per currency, Plaza's market hold account holds exactly the payments held (a difference is money
    /// the ledger kept or lost on the way through the marketplace).
    static func escrowTotals(_ services: PlazaServices, on db: any SQLDatabase) async throws -> [VerifyFinding] {
        let balances = try await services.wallet.ledger.marketHoldBalances(on: db)
        let held = try await DealStore().heldTotals(on: db)
        return Set(balances.keys).union(held.keys).sorted().compactMap { currency in
            let (balance, payments) = (balances[currency] ?? 0, held[currency] ?? 0)
            guard balance != payments else { return nil }
            return VerifyFinding(
                kind: .escrowTotal,
                id: currency,
                message:
                    "the hold account holds \(VerifyFinding.money(balance, currency)), held payments sum to \(VerifyFinding.money(payments, currency))"
            )
        }
    }

    /// `idempotency_answer`: every kept answer of a money route names an object that exists, for the amount it says.
    static func answers(_ services: PlazaServices, on db: any SQLDatabase) async throws -> [VerifyFinding] {
        let answers = try await IdempotencyStore.answeredObjects(on: db)
        let ids = { (kind: IdempotencyStore.AnsweredObject.Kind) in
            Array(Set(answers.filter { $0.kind == kind }.compactMap(\.id)))
        }
        var amounts: [IdempotencyStore.AnsweredObject.Kind: [UUID: Set<Int64>]] = [:]
        amounts[.transfer] = try await services.wallet.ledger.amounts(
            kind: WalletService.transferJournalKind,
            references: ids(.transfer),
            on: db
        )
        .mapValues { [$0] }
        amounts[.charge] = try await ChargeStore().answerableAmounts(of: ids(.charge), on: db)
        amounts[.topUp] = try await FundingStore().amounts(of: ids(.topUp), .topUp, on: db).mapValues { [$0] }
        amounts[.withdrawal] = try await FundingStore().amounts(of: ids(.withdrawal), .withdrawal, on: db).mapValues {
            [$0]
        }
        amounts[.cardOrder] = try await CardsStore().totals(of: ids(.cardOrder), on: db).mapValues { [$0] }
        let buyers = Set(answers.filter { $0.kind == .marketPayment }.compactMap { UUID(uuidString: $0.scope) })
        let payments = try await DealStore().payments(buyers: Array(buyers), on: db)
        return answers.compactMap { answer in
            let said =
                "the answer names a \(answer.kind.rawValue) of \(VerifyFinding.money(answer.amount, answer.currency))"
            guard let id = answer.id else {
                let made = UUID(uuidString: answer.scope).map {
                    DealStore.PaymentMade(buyer: $0, amount: answer.amount, currency: answer.currency)
                }
                guard let made, payments.contains(made) else {
                    return VerifyFinding(
                        kind: .idempotencyAnswer,
                        id: answer.key,
                        message: "\(said) that its caller never made"
                    )
                }
                return nil
            }
            let name = id.uuidString.lowercased()
            guard let stored = amounts[answer.kind]?[id] else {
                return VerifyFinding(
                    kind: .idempotencyAnswer,
                    id: answer.key,
                    message: "\(said), \(name), which does not exist"
                )
            }
            guard stored.contains(answer.amount) else {
                let actual = stored.sorted().map { VerifyFinding.money($0, answer.currency) }.joined(separator: " or ")
                return VerifyFinding(
                    kind: .idempotencyAnswer,
                    id: answer.key,
                    message: "\(said), \(name), which is of \(actual)"
                )
            }
            return nil
        }
    }
}
