import Foundation
import PlazaCore
import SQLKit

/// Paying earns the punch: the loyalty domain's answer to the wallet (`ChargeLoyalty`). A paid charge punches the
/// payer's active card of each of the business's programs that earn on payment (taking a first card when they hold none
/// and allowed it in their loyalty settings), once per charge: the wallet decides the charge's approval once, and the
/// charge and program are the key of what it earned. Every card is read locked, as a sync locks it.
struct LoyaltyPaymentPunches: ChargeLoyalty {
    let service: LoyaltyService

    var store: LoyaltyStore { service.store }

    func earn(
        charge: UUID,
        customer: UUID,
        business: UUID,
        spent: Money,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> (earned: [LoyaltyEarned], messages: [FeedMessage]) {
        let programs = try await store.earningPrograms(business: business, on: db)
        guard !programs.isEmpty else { return ([], []) }
        var state = try await LoyaltyService.SyncState(service: service, user: customer, cards: [], on: db)
        var earned: [LoyaltyEarned] = []
        var takesCards: Bool?
        for listed in programs {
            // Locked, as taking a card locks it: one card at a time holds against the customer taking one meanwhile.
            guard let program = try await store.program(listed.id, forUpdate: true, on: db), program.state == .active,
                program.earnOnPayment, program.expiresAt.map({ $0 > now }) ?? true
            else { continue }
            let open = try await store.openCards(program: program.id, user: customer, on: db)
            var card: CardRecord
            if let active = open.filter({ $0.state == .active }).min(by: { $0.createdAt < $1.createdAt }),
                let locked = try await store.card(active.id, forUpdate: true, on: db), locked.state == .active,
                locked.expiresAt.map({ $0 > now }) ?? true
            {
                card = locked
            } else {
                if takesCards == nil { takesCards = try await store.cardOnPayment(user: customer, on: db) }
                guard takesCards == true, !(program.oneCardAtATime && !open.isEmpty) else { continue }
                card = CardRecord(program: program, user: customer, level: 1, now: now)
                // Nothing earned, no card taken.
                guard Self.punches(spent, program, card) > 0 else { continue }
                try await store.insert(card, on: db)
            }
            let count = Self.punches(spent, program, card)
            guard count > 0 else { continue }
            let after = try await state.add(count, to: card, of: program, now: now, on: db)
            let entry = LoyaltyEarned(
                programId: program.id,
                cardId: card.id,
                punchesAdded: after.punches - card.punches,
                punches: after.punches,
                punchesRequired: after.punchesRequired,
                completed: after.state == .completed,
                title: after.title
            )
            // The charge is approved once, so this is its first time; a second would be a bug, not a retry.
            guard try await store.insertPaymentPunches(entry, charge: charge, user: customer, now: now, on: db) else {
                throw EarnedTwice(charge: charge, program: program.id)
            }
            earned.append(entry)
        }
        let (_, messages) = try await state.finish(on: db)
        return (earned, messages)
    }

    /// A charge earning twice on a program: the approval is decided once, so this is a bug; the payment rolls back.
    struct EarnedTwice: Error {
        let charge: UUID
        let program: UUID
    }

    static func punches(_ spent: Money, _ program: ProgramRecord, _ card: CardRecord) -> Int {
        LoyaltyRules.punchesEarned(
            spent: spent,
            minimumSpend: program.minimumSpend,
            per: program.punchesPerPurchase,
            cap: card.punchesRequired - card.punches
        )
    }

    func refunded(
        charge: UUID,
        customer: UUID,
        kept: Money,
        now: Date,
        on db: any SQLDatabase
    ) async throws -> [FeedMessage] {
        let rows = try await store.paymentPunches(charges: [charge], on: db)[charge] ?? []
        guard !rows.isEmpty else { return [] }
        var state = try await LoyaltyService.SyncState(
            service: service,
            user: customer,
            cards: Set(rows.map(\.earned.cardId)),
            on: db
        )
        for (earned, takenBack) in rows {
            guard let program = try await store.program(earned.programId, on: db),
                var card = state.cards[earned.cardId]
            else { continue }
            let keep = LoyaltyRules.punchesEarned(
                spent: kept,
                minimumSpend: program.minimumSpend,
                per: program.punchesPerPurchase,
                cap: earned.punchesAdded
            )
            let back = min(earned.punchesAdded - takenBack - keep, card.punches)
            guard back > 0 else { continue }
            switch card.state {
            case .active:
                break
            case .completed:
                // Filled by this purchase and not redeemed: it collects again, and the next level's card it started
                // goes, unless that one collects already (then the punches stay where they are).
                guard try await store.deleteUnpunchedSuccessor(of: card, on: db) else { continue }
                card.state = .active
                card.completedAt = nil
            case .redeemed, .expired:
                continue
            }
            card.punches -= back
            state.touch(card)
            try await store.takeBack(back, charge: charge, program: program.id, on: db)
        }
        return try await state.finish(on: db).1
    }

    func earned(charges: [UUID], on db: any SQLDatabase) async throws -> [UUID: [LoyaltyEarned]] {
        try await store.paymentPunches(charges: charges, on: db).mapValues { rows in
            rows.map { earned, takenBack in
                var net = earned
                net.punchesAdded -= takenBack
                net.punches -= takenBack
                net.completed = earned.completed && takenBack == 0
                return net
            }
        }
    }

    func committed(cards: [UUID]) async {
        guard !cards.isEmpty else { return }
        await service.passesChanged(cards)
    }
}
