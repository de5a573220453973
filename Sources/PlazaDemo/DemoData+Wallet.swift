import Foundation
import PlazaCore
import PlazaServer
import SQLKit

extension DemoData {
    /// Anna's wallet: a settled top-up from the sandbox's test card and a transfer to Carla, so the wallet, its
    /// history and a charge at Bruno's counter work at once. Only on a database where Anna has no history yet.
    static func seedWallet(_ services: PlazaServices, now: Date = Date()) async throws {
        let wallet = services.wallet
        let store = AccountStore()
        guard let anna = try await store.user(login: "anna", on: services.database.sql),
            let carla = try await store.user(login: "carla", on: services.database.sql),
            try await wallet.activity.list(
                owner: anna.id,
                filter: .all,
                limit: 1,
                after: nil,
                on: services.database.sql
            ).isEmpty
        else { return }
        let currency = services.configuration.wallet.currencies[0]
        let topUp = FundingRecord.settledTopUp(
            user: anna.id,
            amount: 5_000,
            currency: currency,
            cardBrand: "visa",
            cardLast4: "4242",
            at: now.addingTimeInterval(-3_600)
        )
        let transfer = Transfer(
            id: UUID(),
            from: WalletService.party(anna),
            to: WalletService.party(carla),
            amount: 1_250,
            currency: currency,
            note: "Pizza night",
            createdAt: now.addingTimeInterval(-1_800)
        )
        try await services.database.transaction { db in
            try await wallet.funding.insert(topUp, .topUp, on: db)
            try await wallet.ledger.post(
                JournalEntry(
                    kind: "top_up",
                    referenceId: topUp.id,
                    currency: currency,
                    postings: [
                        Posting(owner: SystemAccount.gatewayClearing, kind: .system, amount: -topUp.amount),
                        Posting(owner: anna.id, kind: .user, amount: topUp.amount),
                    ],
                    createdAt: topUp.createdAt
                ),
                on: db
            )
            try await wallet.ledger.post(
                JournalEntry(
                    kind: "transfer",
                    referenceId: transfer.id,
                    currency: currency,
                    postings: [
                        Posting(owner: anna.id, kind: .user, amount: -transfer.amount),
                        Posting(owner: carla.id, kind: .user, amount: transfer.amount),
                    ],
                    createdAt: transfer.createdAt
                ),
                on: db
            )
            try await wallet.activity.insert(
                [
                    WalletService.activity(for: topUp, kind: .topUp, amount: topUp.amount),
                    ActivityRecord.make(
                        owner: anna.id,
                        kind: .transferOut,
                        amount: -transfer.amount,
                        currency: currency,
                        status: .succeeded,
                        counterpart: transfer.to,
                        counterpartId: carla.id,
                        note: transfer.note,
                        referenceId: transfer.id,
                        createdAt: transfer.createdAt
                    ),
                    ActivityRecord.make(
                        owner: carla.id,
                        kind: .transferIn,
                        amount: transfer.amount,
                        currency: currency,
                        status: .succeeded,
                        counterpart: transfer.from,
                        counterpartId: anna.id,
                        note: transfer.note,
                        referenceId: transfer.id,
                        createdAt: transfer.createdAt
                    ),
                ],
                on: db
            )
        }
    }
}
