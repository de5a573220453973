import Foundation
import PlazaCore
import SQLKit
import Synchronization

/// A checked transfer request waiting for its batch.
struct TransferJob: Sendable {
    var id = UUID.timeOrdered()
    let sender: UserRecord
    /// Normalized, and a name an account could have.
    let recipient: String
    let amount: Int64
    let currency: String
    let note: String?
    let claim: IdempotencyClaim
    let createdAt: Date
}

/// Group commit for transfers: transfers that arrive while a batch is being written wait and go together in the next
/// transaction, so that many share one BEGIN and COMMIT (one writer turn on SQLite) and each step is one statement for
/// all of them. Each transfer still succeeds or fails alone: a refused debit changes nothing, and a batch that fails
/// for any other reason runs again one transfer at a time. Lanes: one for SQLite's single writer; a few for
/// PostgreSQL, whose batches lock their accounts in id order first and so never wait for each other in a circle.
typealias TransferBatcher = Batcher<TransferJob, SentTransfer>

/// A transfer that can go ahead, and where it is in its batch.
struct TransferMovement: Sendable {
    let index: Int
    let transfer: Transfer
    let sender: UUID
    let recipient: UUID
}

/// A transfer made, and its JSON: encoded once for the stored replay, the response and the recipient's event.
struct SentTransfer: Sendable {
    let transfer: Transfer
    let json: String
}

extension WalletService {
    /// Runs `jobs` in one transaction; when that fails as a whole, each alone. One outcome per job, in order.
    func runTransfers(_ jobs: [TransferJob]) async -> [TransferBatcher.Outcome] {
        do {
            let outcomes = try await transferBatch(jobs)
            // Committed: the middleware must not record these responses again.
            for (job, outcome) in zip(jobs, outcomes) { if case .success = outcome { job.claim.markRecorded() } }
            return outcomes
        } catch let retry as BatchRetry {
            var others = await runTransfers(jobs.filter { retry.failed[$0.claim.lease] == nil })[...]
            return jobs.map { job in retry.failed[job.claim.lease].map { .failure($0) } ?? others.removeFirst() }
        } catch {
            guard jobs.count > 1 else { return [.failure(error)] }
            var outcomes: [TransferBatcher.Outcome] = []
            for job in jobs { outcomes += await runTransfers([job]) }
            return outcomes
        }
    }

    /// Transfers that cannot keep their key (taken over by a retry, or already written): the batch rolls back and
    /// runs again without them; they fail with the error given here, by lease.
    private struct BatchRetry: Error {
        let failed: [String: any Error]
    }

    /// One transaction, in four phases, each one statement for the whole batch: the recipients, the conditional debits
    /// (a refused one changes nothing), the writes (keys, journal, credits, history) and the check that every key was kept.
    private func transferBatch(_ jobs: [TransferJob]) async throws -> [TransferBatcher.Outcome] {
        try await events.transaction { db in
            var outcomes = [TransferBatcher.Outcome?](repeating: nil, count: jobs.count)
            let moving = try await resolveRecipients(jobs, outcomes: &outcomes, on: db)
            let debited = try await debitSenders(moving, outcomes: &outcomes, on: db)
            // Keys with their responses, encoded once for the stored replay, the answer and the recipient's event.
            let keys = try debited.map { item in
                TransferKey(
                    claim: jobs[item.index].claim,
                    body: String(decoding: try PlazaJSON.encoder().encode(item.transfer), as: UTF8.self)
                )
            }
            let (kept, messages) = try await transferWriter.write(debited, keys: keys, on: db)
            let failed = keys.filter { !kept.contains($0.claim.lease) }.map { key -> (String, any Error) in
                (key.claim.lease, key.claim.deferred ? IdempotencyKeyTaken() : PlazaError.idempotencyLeaseLost)
            }
            guard failed.isEmpty else {
                throw BatchRetry(failed: Dictionary(failed, uniquingKeysWith: { first, _ in first }))
            }
            for (item, key) in zip(debited, keys) {
                outcomes[item.index] = .success(SentTransfer(transfer: item.transfer, json: key.body))
            }
            // The recipient reads "Carla K. sent you $7.25." in their language, the amount written their way.
            let alerts = debited.map { item in
                FeedMessage.alert(
                    user: item.recipient,
                    kind: .moneyReceived,
                    link: "/wallet/activity/\(item.transfer.id.uuidString.lowercased())",
                    Wording(
                        key: "alert.money_received",
                        values: ["name": item.transfer.from.name, "note": item.transfer.note ?? ""],
                        amounts: ["money": item.transfer.money]
                    )
                )
            }
            return (outcomes.map { $0! }, messages + alerts)
        }
    }

    /// Phase 1: who each job pays; jobs naming nobody, or the sender, fail here.
    private func resolveRecipients(
        _ jobs: [TransferJob],
        outcomes: inout [TransferBatcher.Outcome?],
        on db: any SQLDatabase
    ) async throws
        -> [TransferMovement]
    {
        let found = try await transferWriter.recipients(
            usernames: Array(Set(jobs.map(\.recipient))),
            senders: Array(Set(jobs.map(\.sender.id))),
            on: db
        )
        let recipients = Dictionary(found.map { ($0.username, $0) }, uniquingKeysWith: { first, _ in first })
        var moving: [TransferMovement] = []
        for (index, job) in jobs.enumerated() {
            guard let recipient = recipients[job.recipient] else {
                outcomes[index] = .failure(PlazaError.validation(field: "to", "No one has this username."))
                continue
            }
            guard recipient.id != job.sender.id else {
                outcomes[index] = .failure(PlazaError.validation(field: "to", "You cannot send money to yourself."))
                continue
            }
            let transfer = Transfer(
                id: job.id,
                from: Self.party(job.sender),
                to: recipient.party,
                amount: job.amount,
                currency: job.currency,
                note: job.note,
                createdAt: job.createdAt
            )
            moving.append(
                TransferMovement(index: index, transfer: transfer, sender: job.sender.id, recipient: recipient.id)
            )
        }
        return moving
    }

    /// Phase 2: the debits, one statement per round and currency (a sender with several transfers here has one in each
    /// round); those the balance did not cover fail with `insufficient_funds`.
    private func debitSenders(
        _ moving: [TransferMovement],
        outcomes: inout [TransferBatcher.Outcome?],
        on db: any SQLDatabase
    ) async throws
        -> [TransferMovement]
    {
        var rounds: [[TransferMovement]] = []
        var seen: [Payer: Int] = [:]
        for item in moving {
            let payer = Payer(sender: item.sender, currency: item.transfer.currency)
            let round = seen[payer, default: 0]
            seen[payer] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append(item)
        }
        let groups = rounds.flatMap { round in
            Dictionary(grouping: round, by: \.transfer.currency).sorted { $0.key < $1.key }.map(\.value)
        }
        let debits = groups.map { items in
            LedgerStore.Debits(
                owners: items.map { ($0.sender, $0.transfer.amount) },
                currency: items[0].transfer.currency,
                time: items[0].transfer.createdAt
            )
        }
        var debited: [TransferMovement] = []
        for (items, paid) in zip(groups, try await ledger.debit(debits, on: db)) {
            for item in items {
                if paid.contains(item.sender) {
                    debited.append(item)
                } else {
                    outcomes[item.index] = .failure(PlazaError.insufficientFunds)
                }
            }
        }
        return debited
    }

    /// Whose money in which currency: one debit per payer and round.
    private struct Payer: Hashable {
        let sender: UUID
        let currency: String
    }

    /// The journal kind of a transfer, on both engines.
    static let transferJournalKind = "transfer"

    static func journalEntry(_ transfer: Transfer, from sender: UUID, to recipient: UUID) -> JournalEntry {
        JournalEntry(
            kind: transferJournalKind,
            referenceId: transfer.id,
            currency: transfer.currency,
            postings: [
                Posting(owner: sender, kind: .user, amount: -transfer.amount),
                Posting(owner: recipient, kind: .user, amount: transfer.amount),
            ],
            createdAt: transfer.createdAt
        )
    }

    static func activity(of transfer: Transfer, from sender: UUID, to recipient: UUID) -> [ActivityRecord] {
        [
            ActivityRecord(
                owner: sender,
                kind: .transferOut,
                amount: -transfer.amount,
                currency: transfer.currency,
                status: .succeeded,
                counterpart: transfer.to,
                counterpartId: recipient,
                note: transfer.note,
                referenceId: transfer.id,
                createdAt: transfer.createdAt
            ),
            ActivityRecord(
                owner: recipient,
                kind: .transferIn,
                amount: transfer.amount,
                currency: transfer.currency,
                status: .succeeded,
                counterpart: transfer.from,
                counterpartId: sender,
                note: transfer.note,
                referenceId: transfer.id,
                createdAt: transfer.createdAt
            ),
        ]
    }
}
