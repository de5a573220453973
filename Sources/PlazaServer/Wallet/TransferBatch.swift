import Foundation
import PlazaCore
import SQLKit
import Synchronization

/// A checked transfer request waiting for its batch.
struct TransferJob: Sendable {
    var id = UUID()
    let sender: UserRecord
    /// Normalized, and a name an account could have.
    let recipient: String
    let amount: Int64
    let currency: String
    let note: String?
    let claim: IdempotencyClaim
    let createdAt: Date
}

/// Group commit for transfers. Transfers that arrive while a batch is being written wait and go together in the next
/// transaction, so that many share one BEGIN and COMMIT (one writer turn on SQLite) and each step is one statement for
/// all of them. Each transfer still succeeds or fails alone: a refused debit changes nothing, and a batch that fails
/// for any other reason runs again one transfer at a time.
final class TransferBatcher: Sendable {
    typealias Outcome = Result<Transfer, any Error>
    typealias Runner = @Sendable ([TransferJob]) async -> [Outcome]

    private struct Waiting {
        let job: TransferJob
        let continuation: CheckedContinuation<Transfer, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var running = 0
    }

    private let state = Mutex(State())
    /// The most transfers in one transaction.
    let capacity: Int
    /// Batches written at once: one for SQLite's single writer; a few for PostgreSQL, whose batches lock their
    /// accounts in id order first and so never wait for each other in a circle.
    let lanes: Int

    init(capacity: Int = 64, lanes: Int) {
        self.capacity = capacity
        self.lanes = lanes
    }

    /// Queues `job` and waits for its outcome; a caller finding a free lane starts a batch with `run`.
    func submit(_ job: TransferJob, run: @escaping Runner) async throws -> Transfer {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.queue.append(Waiting(job: job, continuation: continuation))
                guard state.running < lanes else { return false }
                state.running += 1
                return true
            }
            // Unstructured: the batch serves every waiting request, not only the one that started it.
            if start { Task { await self.drain(run) } }
        }
    }

    private func drain(_ run: Runner) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let batch = Array(state.queue.prefix(capacity))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.running -= 1 }
                return batch
            }
            guard !batch.isEmpty else { return }
            let outcomes = await run(batch.map(\.job))
            for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(with: outcome) }
        }
    }
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

    /// One transaction: recipients looked up together, conditional debits (a refused one changes nothing), then
    /// credits, journal, history, idempotency records and events, each one statement for the whole batch.
    private func transferBatch(_ jobs: [TransferJob]) async throws -> [TransferBatcher.Outcome] {
        let engine = database.engine
        return try await places.withFeed { db in
            var outcomes = [TransferBatcher.Outcome?](repeating: nil, count: jobs.count)
            let found = try await accounts.users(usernames: Array(Set(jobs.map(\.recipient))), on: db)
            let recipients = Dictionary(found.map { ($0.username, $0) }, uniquingKeysWith: { first, _ in first })
            var moving: [(index: Int, transfer: Transfer, recipient: UserRecord)] = []
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
                    id: job.id, from: Self.party(job.sender), to: Self.party(recipient), amount: job.amount, currency: job.currency, note: job.note,
                    createdAt: job.createdAt)
                moving.append((index, transfer, recipient))
            }
            if engine == .postgres {
                try await ledger.lock(Set(moving.flatMap { [jobs[$0.index].sender.id, $0.recipient.id] }), on: db)
            }
            // One statement per round and currency; a sender with several transfers here has one in each round.
            var debited: [(index: Int, transfer: Transfer, recipient: UserRecord)] = []
            var rounds: [[(index: Int, transfer: Transfer, recipient: UserRecord)]] = []
            var seen: [String: Int] = [:]
            for item in moving {
                let round = seen[item.transfer.currency + jobs[item.index].sender.id.uuidString, default: 0]
                seen[item.transfer.currency + jobs[item.index].sender.id.uuidString] = round + 1
                if round == rounds.count { rounds.append([]) }
                rounds[round].append(item)
            }
            for round in rounds {
                for (currency, items) in Dictionary(grouping: round, by: \.transfer.currency) {
                    let paid = try await ledger.debit(
                        items.map { (jobs[$0.index].sender.id, $0.transfer.amount) }, currency, at: items[0].transfer.createdAt, on: db)
                    for item in items {
                        if paid.contains(jobs[item.index].sender.id) {
                            debited.append(item)
                        } else {
                            outcomes[item.index] = .failure(PlazaError.insufficientFunds)
                        }
                    }
                }
            }
            // Keys with their responses: held claims record into their row, deferred ones write it now.
            let responses = try debited.map { item in
                (claim: jobs[item.index].claim, body: String(decoding: try PlazaJSON.encoder().encode(item.transfer), as: UTF8.self))
            }
            let contentType = "application/json; charset=utf-8"
            var kept = try await idempotency.record(responses.filter { !$0.claim.deferred }, status: 201, contentType: contentType, on: db)
            kept.formUnion(try await idempotency.insert(responses.filter(\.claim.deferred), status: 201, contentType: contentType, on: db))
            let failed = responses.filter { !kept.contains($0.claim.lease) }.map { response -> (String, any Error) in
                (response.claim.lease, response.claim.deferred ? IdempotencyKeyTaken() : PlazaError.idempotencyLeaseLost)
            }
            guard failed.isEmpty else { throw BatchRetry(failed: Dictionary(failed, uniquingKeysWith: { first, _ in first })) }
            try await ledger.write(debited.map { item in Self.journalEntry(item.transfer, from: jobs[item.index].sender.id, to: item.recipient.id) }, on: db)
            for (currency, items) in Dictionary(grouping: debited, by: \.transfer.currency) {
                let credits = Dictionary(grouping: items, by: \.recipient.id).map { owner, items in
                    Posting(owner: owner, kind: .user, amount: items.reduce(0) { $0 + $1.transfer.amount })
                }
                try await ledger.credit(credits.sorted { $0.owner.uuidString < $1.owner.uuidString }, currency: currency, at: items[0].transfer.createdAt, on: db)
            }
            try await activity.insert(debited.flatMap { Self.activity(of: $0.transfer, from: jobs[$0.index].sender.id, to: $0.recipient.id) }, on: db)
            var messages: [FeedMessage] = []
            for item in debited {
                outcomes[item.index] = .success(item.transfer)
                guard places.feed.reaches([item.recipient.id]) else { continue }
                let event = try Self.event(WalletEventType.transferReceived, item.transfer, at: item.transfer.createdAt)
                messages.append(.event(audience: [item.recipient.id], event: event))
            }
            return (outcomes.map { $0! }, messages)
        }
    }

    static func journalEntry(_ transfer: Transfer, from sender: UUID, to recipient: UUID) -> JournalEntry {
        JournalEntry(
            kind: "transfer", referenceId: transfer.id, currency: transfer.currency,
            postings: [Posting(owner: sender, kind: .user, amount: -transfer.amount), Posting(owner: recipient, kind: .user, amount: transfer.amount)],
            createdAt: transfer.createdAt)
    }

    static func activity(of transfer: Transfer, from sender: UUID, to recipient: UUID) -> [ActivityRecord] {
        [
            ActivityRecord(
                owner: sender, kind: .transferOut, amount: -transfer.amount, currency: transfer.currency, status: .succeeded, counterpart: transfer.to,
                counterpartId: recipient, note: transfer.note, referenceId: transfer.id, createdAt: transfer.createdAt),
            ActivityRecord(
                owner: recipient, kind: .transferIn, amount: transfer.amount, currency: transfer.currency, status: .succeeded, counterpart: transfer.from,
                counterpartId: sender, note: transfer.note, referenceId: transfer.id, createdAt: transfer.createdAt),
        ]
    }
}
