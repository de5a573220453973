import Foundation
import PlazaCore
import PostgresNIO
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

    /// One transaction: recipients looked up together, conditional debits (a refused one changes nothing), then
    /// credits, journal, history, idempotency records and events, each one statement for the whole batch.
    private func transferBatch(_ jobs: [TransferJob]) async throws -> [TransferBatcher.Outcome] {
        try await events.transaction { db in
            let prepared = db.prepared
            var outcomes = [TransferBatcher.Outcome?](repeating: nil, count: jobs.count)
            let recipients = try await recipients(of: jobs, on: db)
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
                    id: job.id, from: Self.party(job.sender), to: recipient.party, amount: job.amount, currency: job.currency, note: job.note,
                    createdAt: job.createdAt)
                moving.append(TransferMovement(index: index, transfer: transfer, sender: job.sender.id, recipient: recipient.id))
            }
            // One statement per round and currency; a sender with several transfers here has one in each round.
            var debited: [TransferMovement] = []
            var rounds: [[TransferMovement]] = []
            var seen: [Payer: Int] = [:]
            for item in moving {
                let payer = Payer(sender: item.sender, currency: item.transfer.currency)
                let round = seen[payer, default: 0]
                seen[payer] = round + 1
                if round == rounds.count { rounds.append([]) }
                rounds[round].append(item)
            }
            let groups = rounds.flatMap { round in Dictionary(grouping: round, by: \.transfer.currency).sorted { $0.key < $1.key }.map(\.value) }
            let debits = groups.map { items in
                LedgerStore.Debits(
                    owners: items.map { ($0.sender, $0.transfer.amount) }, currency: items[0].transfer.currency, time: items[0].transfer.createdAt)
            }
            for (items, paid) in zip(groups, try await ledger.debit(debits, on: db)) {
                for item in items {
                    if paid.contains(item.sender) {
                        debited.append(item)
                    } else {
                        outcomes[item.index] = .failure(PlazaError.insufficientFunds)
                    }
                }
            }
            // Keys with their responses: held claims record into their row, deferred ones write it now.
            let responses = try debited.map { item in
                TransferStatements.Write.Key(
                    claim: jobs[item.index].claim, body: String(decoding: try PlazaJSON.encoder().encode(item.transfer), as: UTF8.self))
            }
            let kept: Set<String>
            var messages: [FeedMessage] = []
            if let prepared, let channel = events.feed.notificationChannel {
                kept = try await write(debited, keys: responses, channel: channel, on: prepared)
            } else {
                kept = try await write(debited, keys: responses, messages: &messages, on: db)
            }
            let failed = responses.filter { !kept.contains($0.claim.lease) }.map { response -> (String, any Error) in
                (response.claim.lease, response.claim.deferred ? IdempotencyKeyTaken() : PlazaError.idempotencyLeaseLost)
            }
            guard failed.isEmpty else { throw BatchRetry(failed: Dictionary(failed, uniquingKeysWith: { first, _ in first })) }
            for (item, response) in zip(debited, responses) {
                outcomes[item.index] = .success(SentTransfer(transfer: item.transfer, json: response.body))
            }
            return (outcomes.map { $0! }, messages)
        }
    }

    /// Whose money in which currency: one debit per payer and round.
    private struct Payer: Hashable {
        let sender: UUID
        let currency: String
    }

    /// Who the jobs' usernames name, by username. On PostgreSQL the same statement locks the accounts of the senders
    /// and recipients in id order, before the batch moves them in any order.
    private func recipients(of jobs: [TransferJob], on db: any SQLDatabase) async throws -> [String: Recipient] {
        let usernames = Array(Set(jobs.map(\.recipient)))
        let found: [Recipient]
        if let prepared = db.prepared {
            let statement = TransferStatements.Recipients(usernames: usernames, senders: Array(Set(jobs.map(\.sender.id))))
            found = try await prepared.run(statement).map { row in
                let (id, username, name) = try row.decode((UUID, String, String).self)
                return Recipient(id: id, username: username, name: name)
            }
        } else {
            found = try await accounts.users(usernames: usernames, on: db).map { Recipient(id: $0.id, username: $0.username, name: $0.displayName) }
        }
        return Dictionary(found.map { ($0.username, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private struct Recipient {
        let id: UUID
        let username: String
        let name: String
        var party: Party { Party(kind: .user, username: username, name: name) }
    }

    /// The batch's writes on PostgreSQL as one prepared statement (`TransferStatements.Write`), the recipients'
    /// events packed into its notifications; the leases of the keys kept.
    private func write(
        _ debited: [TransferMovement], keys: [TransferStatements.Write.Key], channel: String, on db: any PreparedStatements
    ) async throws
        -> Set<String>
    {
        guard !debited.isEmpty else { return [] }
        let events = try zip(debited, keys).map { item, key in
            try PostgresFeed.eventPayload(
                audience: [item.recipient], type: WalletEventType.transferReceived, occurredAt: item.transfer.createdAt, data: key.body)
        }
        let statement = TransferStatements.Write(
            keys: keys, contentType: Self.contentType, now: Date(),
            movements: debited,
            channel: channel, notifications: PostgresFeed.pack(events))
        return Set(try await db.run(statement).compactMap { try $0.decode(String?.self) })
    }

    /// The batch's writes on SQLite through SQLKit, pipelined; the leases of the keys kept (when one was lost, the
    /// batch rolls back and runs again without it). The events go to `messages` for `withFeed` to deliver after the commit.
    private func write(
        _ debited: [TransferMovement], keys responses: [TransferStatements.Write.Key], messages: inout [FeedMessage], on db: any SQLDatabase
    )
        async throws -> Set<String>
    {
        // One pipeline: the keys first, then the ledger and history, which the rollback undoes when a key was lost.
        let held = responses.filter { !$0.claim.deferred }.map { ($0.claim, $0.body) }
        let deferred = responses.filter(\.claim.deferred).map { ($0.claim, $0.body) }
        let keys = [
            idempotency.recordStatement(held, status: 201, contentType: Self.contentType),
            idempotency.insertStatement(deferred, status: 201, contentType: Self.contentType, on: db),
        ].compactMap { $0 }
        var writes = ledger.writeStatements(debited.map { Self.journalEntry($0.transfer, from: $0.sender, to: $0.recipient) }, on: db)
        for (currency, items) in Dictionary(grouping: debited, by: \.transfer.currency).sorted(by: { $0.key < $1.key }) {
            let credits = Dictionary(grouping: items, by: \.recipient).map { owner, items in
                Posting(owner: owner, kind: .user, amount: items.reduce(0) { $0 + $1.transfer.amount })
            }
            let sorted = credits.sorted { $0.owner.uuidString < $1.owner.uuidString }
            if let credit = ledger.creditStatement(sorted, currency: currency, at: items[0].transfer.createdAt, on: db) { writes.append(credit) }
        }
        if let history = activity.insertStatement(debited.flatMap { Self.activity(of: $0.transfer, from: $0.sender, to: $0.recipient) }, on: db) {
            writes.append(history)
        }
        let results = try await db.pipeline(keys + writes)
        let kept = try results.prefix(keys.count).reduce(into: Set<String>()) { $0.formUnion(try IdempotencyStore.leases($1)) }
        guard kept.count == responses.count else { return kept }
        for (item, response) in zip(debited, responses) where events.reaches([item.recipient]) {
            let data = try PlazaJSON.decoder().decode(JSONValue.self, from: Data(response.body.utf8))
            let event = PlazaEvent(type: WalletEventType.transferReceived, occurredAt: item.transfer.createdAt, data: data)
            messages.append(.event(audience: [item.recipient], event: event))
        }
        return kept
    }

    private static let contentType = "application/json; charset=utf-8"
    /// The journal kind of a transfer, on both engines.
    static let transferJournalKind = "transfer"

    static func journalEntry(_ transfer: Transfer, from sender: UUID, to recipient: UUID) -> JournalEntry {
        JournalEntry(
            kind: transferJournalKind, referenceId: transfer.id, currency: transfer.currency,
            postings: [
                Posting(owner: sender, kind: .user, amount: -transfer.amount), Posting(owner: recipient, kind: .user, amount: transfer.amount),
            ],
            createdAt: transfer.createdAt)
    }

    static func activity(of transfer: Transfer, from sender: UUID, to recipient: UUID) -> [ActivityRecord] {
        [
            ActivityRecord(
                owner: sender, kind: .transferOut, amount: -transfer.amount, currency: transfer.currency, status: .succeeded,
                counterpart: transfer.to,
                counterpartId: recipient, note: transfer.note, referenceId: transfer.id, createdAt: transfer.createdAt),
            ActivityRecord(
                owner: recipient, kind: .transferIn, amount: transfer.amount, currency: transfer.currency, status: .succeeded,
                counterpart: transfer.from,
                counterpartId: sender, note: transfer.note, referenceId: transfer.id, createdAt: transfer.createdAt),
        ]
    }
}
