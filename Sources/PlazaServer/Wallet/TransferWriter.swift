import Foundation
import PlazaCore
import SQLKit

/// How a transfer batch finds its recipients and writes what it moved, for one engine: chosen once at start-up
/// (`WalletService.transferWriter`). Both write the same rows (`TransferParityTests`).
protocol TransferWriter: Sendable {
    /// Who `usernames` name. PostgreSQL's also locks the accounts of `senders` and the recipients in id order, before
    /// the batch moves them in any order, so that two batches never wait for each other in a circle.
    func recipients(usernames: [String], senders: [UUID], on db: any SQLDatabase) async throws -> [TransferRecipient]
    /// Writes the keys with their responses (held claims into their row, deferred ones as new rows), journal entries
    /// and postings, the recipients' credits and both sides' history: the leases of the keys kept (when one was lost,
    /// the batch rolls back and runs again without it), and the feed messages to publish with the commit.
    func write(
        _ debited: [TransferMovement],
        keys: [TransferKey],
        on db: any SQLDatabase
    ) async throws -> (kept: Set<String>, messages: [FeedMessage])
}

struct TransferRecipient: Sendable {
    let id: UUID
    let username: String
    let name: String
    var party: Party { Party(kind: .user, username: username, name: name) }
}

/// A transfer's idempotency key and its response, written with the money.
struct TransferKey: Sendable {
    static let contentType = "application/json; charset=utf-8"
    var claim: IdempotencyClaim
    var body: String
}

/// A batch's writes on SQLite: the stores' statements, pipelined to the single writer.
struct SQLiteTransferWriter: TransferWriter {
    let idempotency: IdempotencyStore
    let events: EventBus
    let ledger = LedgerStore()
    let activity = ActivityStore()
    let accounts = AccountStore()

    func recipients(usernames: [String], senders: [UUID], on db: any SQLDatabase) async throws -> [TransferRecipient] {
        try await accounts.users(usernames: usernames, on: db).map {
            TransferRecipient(id: $0.id, username: $0.username, name: $0.displayName)
        }
    }

    func write(
        _ debited: [TransferMovement],
        keys: [TransferKey],
        on db: any SQLDatabase
    ) async throws -> (kept: Set<String>, messages: [FeedMessage]) {
        // One pipeline: the keys first, then the ledger and history, which the rollback undoes when a key was lost.
        let held = keys.filter { !$0.claim.deferred }.map { ($0.claim, $0.body) }
        let deferred = keys.filter(\.claim.deferred).map { ($0.claim, $0.body) }
        let keyStatements = [
            idempotency.recordStatement(held, status: 201, contentType: TransferKey.contentType),
            idempotency.insertStatement(deferred, status: 201, contentType: TransferKey.contentType, on: db),
        ].compactMap { $0 }
        var writes = ledger.writeStatements(
            debited.map { WalletService.journalEntry($0.transfer, from: $0.sender, to: $0.recipient) },
            on: db
        )
        for (currency, items) in Dictionary(grouping: debited, by: \.transfer.currency).sorted(by: { $0.key < $1.key })
        {
            let credits = Dictionary(grouping: items, by: \.recipient).map { owner, items in
                Posting(owner: owner, kind: .user, amount: items.reduce(0) { $0 + $1.transfer.amount })
            }
            let sorted = credits.sorted { $0.owner.uuidString < $1.owner.uuidString }
            if let credit = ledger.creditStatement(sorted, currency: currency, at: items[0].transfer.createdAt, on: db)
            {
                writes.append(credit)
            }
        }
        let history = debited.flatMap { WalletService.activity(of: $0.transfer, from: $0.sender, to: $0.recipient) }
        if let statement = activity.insertStatement(history, on: db) { writes.append(statement) }
        let results = try await db.pipeline(keyStatements + writes)
        let kept = try results.prefix(keyStatements.count).reduce(into: Set<String>()) {
            $0.formUnion(try IdempotencyStore.leases($1))
        }
        guard kept.count == keys.count else { return (kept, []) }
        var messages: [FeedMessage] = []
        for (item, key) in zip(debited, keys) where events.reaches([item.recipient]) {
            let data = try PlazaJSON.decoder().decode(JSONValue.self, from: Data(key.body.utf8))
            messages.append(
                .event(
                    audience: [item.recipient],
                    event: PlazaEvent(
                        type: WalletEventType.transferReceived,
                        occurredAt: item.transfer.createdAt,
                        data: data
                    )
                )
            )
        }
        return (kept, messages)
    }
}
