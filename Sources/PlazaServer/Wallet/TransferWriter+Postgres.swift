import Foundation
import PlazaCore
import PostgresNIO
import SQLKit

/// A batch's writes on PostgreSQL: the recipients' lookup that also locks, then everything else in one prepared
/// statement whose notifications carry the recipients' events (one round trip, and PostgreSQL plans neither again).
struct PostgresTransferWriter: TransferWriter {
    /// The feed's `LISTEN/NOTIFY` channel.
    let channel: String

    func recipients(usernames: [String], senders: [UUID], on db: any SQLDatabase) async throws -> [TransferRecipient] {
        let prepared = Self.prepared(db)
        _ = try await prepared.run(AccountLocksStatement(usernames: usernames, senders: senders))
        return try await prepared.run(RecipientsStatement(usernames: usernames, senders: senders)).map { row in
            let (id, username, name) = try row.decode((UUID, String, String).self)
            return TransferRecipient(id: id, username: username, name: name)
        }
    }

    func write(
        _ debited: [TransferMovement],
        keys: [TransferKey],
        on db: any SQLDatabase
    ) async throws -> (kept: Set<String>, messages: [FeedMessage]) {
        guard !debited.isEmpty else { return ([], []) }
        let events = try zip(debited, keys).map { item, key in
            try PostgresFeed.eventPayload(
                audience: [item.recipient],
                type: WalletEventType.transferReceived,
                occurredAt: item.transfer.createdAt,
                data: key.body
            )
        }
        let statement = WriteStatement(
            keys: keys,
            contentType: TransferKey.contentType,
            now: Date(),
            movements: debited,
            channel: channel,
            notifications: PostgresFeed.pack(events)
        )
        return (Set(try await Self.prepared(db).run(statement).compactMap { try $0.decode(String?.self) }), [])
    }

    /// The batch's session: PostgreSQL's, which runs prepared statements (this writer is chosen for that engine only).
    private static func prepared(_ db: any SQLDatabase) -> any PreparedStatements {
        guard let prepared = db.prepared else {
            preconditionFailure("the PostgreSQL transfer writer got another engine's database")
        }
        return prepared
    }

    /// A lock on every party of the batch, senders and recipients alike, taken in one order before any row's: a
    /// recipient without an account has no row for `RecipientsStatement` to lock, and the credit that makes it locks
    /// it later, out of order. Three processes' batches deadlocked that way on a new recipient (PostgreSQL aborted one
    /// after its one-second `deadlock_timeout`: a 503 the client retried; `scripts/rolling-restart-check`). Keys are
    /// hashes of the ids, sorted in a subquery so that the locks are taken in that order; a collision only serializes.
    struct AccountLocksStatement: PartiesStatement {
        static let sql = """
            SELECT count(*) AS locked FROM (SELECT pg_advisory_xact_lock(7011, k) FROM (SELECT DISTINCT hashtext(i::text) AS k \
            FROM (SELECT id AS i FROM users WHERE username = ANY($1::text[]) UNION ALL SELECT unnest($2::uuid[])) AS ids \
            ORDER BY k) AS keys) AS done
            """
        var usernames: [String]
        var senders: [UUID]
    }

    /// The recipients by username, and a lock on the accounts of them and of `senders`, taken in id order so that two
    /// batches never wait for each other in a circle. Rows: `id`, `username`, `display_name`.
    struct RecipientsStatement: PartiesStatement {
        static let sql = """
            WITH r AS (SELECT id, username, display_name FROM users WHERE username = ANY($1::text[]) AND deleted_at IS NULL), \
            l AS (SELECT owner_id FROM wallet_accounts WHERE owner_id = ANY($2::uuid[] || ARRAY(SELECT id FROM r)) \
            ORDER BY owner_id, currency FOR UPDATE) \
            SELECT id, username, display_name, (SELECT count(*) FROM l) AS locked FROM r
            """
        var usernames: [String]
        var senders: [UUID]
    }

    /// Everything a batch writes once its debits are done, one row per column below per transfer: the idempotency keys
    /// with their responses (new rows for deferred claims, the claimed row for held ones), journal entries and
    /// postings, the recipients' credits, both sides' history, and the feed's notifications. Ids come from Swift and
    /// kinds from their Swift cases, as on SQLite (`TransferParityTests` compares the rows). Rows: the `lease_id` of
    /// each key kept.
    struct WriteStatement: PostgresStatement {
        static let sql = """
            WITH t AS (SELECT * FROM unnest($8::uuid[], $9::timestamptz[], $10::uuid[], $11::uuid[], $12::int8[], \
            $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $25::uuid[], $26::uuid[], $27::uuid[]) \
            AS t(transfer_id, created_at, sender, recipient, amount, currency, sender_username, sender_name, recipient_username, recipient_name, \
            note, entry_id, out_id, in_id)), \
            k AS (INSERT INTO idempotency_keys (scope, key, request_hash, status, content_type, body, created_at, lease_id, leased_until) \
            SELECT s, k, h, 201, $6, b, $7, l, $7 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(s, k, h, b, l) \
            ON CONFLICT (scope, key) DO NOTHING RETURNING lease_id), \
            r AS (UPDATE idempotency_keys SET status = 201, content_type = $6, body = v.b \
            FROM unnest($21::text[], $22::text[], $23::text[], $24::text[]) AS v(s, k, l, b) \
            WHERE idempotency_keys.scope = v.s AND idempotency_keys.key = v.k AND idempotency_keys.lease_id = v.l \
            AND idempotency_keys.status IS NULL AND cardinality($21::text[]) > 0 RETURNING lease_id), \
            j AS (INSERT INTO journal_entries (id, kind, reference_id, created_at) SELECT entry_id, $28::text, transfer_id, created_at FROM t), \
            p AS (INSERT INTO postings (entry_id, owner_id, currency, amount) \
            SELECT entry_id, sender, currency, -amount FROM t UNION ALL SELECT entry_id, recipient, currency, amount FROM t), \
            c AS (INSERT INTO wallet_accounts (owner_id, currency, kind, balance, updated_at) \
            SELECT recipient, currency, $29::text, sum(amount), max(created_at) FROM t GROUP BY recipient, currency ORDER BY recipient, currency \
            ON CONFLICT (owner_id, currency) DO UPDATE SET balance = wallet_accounts.balance + excluded.balance, updated_at = excluded.updated_at), \
            a AS (INSERT INTO wallet_activity (id, owner_id, kind, amount, currency, status, counterpart_kind, counterpart_id, counterpart_username, \
            counterpart_name, note, reference_id, created_at) \
            SELECT out_id, sender, $30::text, -amount, currency, $32::text, $33::text, recipient, NULLIF(recipient_username, ''), \
            recipient_name, NULLIF(note, ''), transfer_id, created_at FROM t \
            UNION ALL SELECT in_id, recipient, $31::text, amount, currency, $32::text, $33::text, sender, NULLIF(sender_username, ''), \
            sender_name, NULLIF(note, ''), transfer_id, created_at FROM t) \
            SELECT lease_id FROM k UNION ALL SELECT lease_id FROM r UNION ALL SELECT NULL FROM (SELECT pg_notify($19, n) FROM unnest($20::text[]) AS n) AS sent
            """

        var keys: [TransferKey]
        var contentType: String
        var now: Date
        var movements: [TransferMovement]
        var channel: String
        var notifications: [String]

        func makeBindings() throws -> PostgresBindings {
            let (new, held) = (keys.filter(\.claim.deferred), keys.filter { !$0.claim.deferred })
            var bindings = PostgresBindings(capacity: 33)
            bindings.append(new.map(\.claim.scope))
            bindings.append(new.map(\.claim.key))
            bindings.append(new.map(\.claim.requestHash))
            bindings.append(new.map(\.body))
            bindings.append(new.map(\.claim.lease))
            bindings.append(contentType)
            bindings.append(now)
            bindings.append(movements.map(\.transfer.id))
            bindings.append(movements.map(\.transfer.createdAt))
            bindings.append(movements.map(\.sender))
            bindings.append(movements.map(\.recipient))
            bindings.append(movements.map(\.transfer.amount))
            bindings.append(movements.map(\.transfer.currency))
            bindings.append(movements.map { $0.transfer.from.username ?? "" })
            bindings.append(movements.map(\.transfer.from.name))
            bindings.append(movements.map { $0.transfer.to.username ?? "" })
            bindings.append(movements.map(\.transfer.to.name))
            // Empty text is never stored (a note or username is nil instead), so '' stands for none.
            bindings.append(movements.map { $0.transfer.note ?? "" })
            bindings.append(channel)
            bindings.append(notifications)
            bindings.append(held.map(\.claim.scope))
            bindings.append(held.map(\.claim.key))
            bindings.append(held.map(\.claim.lease))
            bindings.append(held.map(\.body))
            // Ids made here, as SQLite's writes make them (time-ordered), and every kind from its Swift case.
            bindings.append(movements.map { _ in UUID.timeOrdered(at: now) })
            bindings.append(movements.map { _ in UUID.timeOrdered(at: now) })
            bindings.append(movements.map { _ in UUID.timeOrdered(at: now) })
            bindings.append(WalletService.transferJournalKind)
            bindings.append(LedgerAccountKind.user.rawValue)
            bindings.append(ActivityKind.transferOut.rawValue)
            bindings.append(ActivityKind.transferIn.rawValue)
            bindings.append(FundingStatus.succeeded.rawValue)
            bindings.append(Party.Kind.user.rawValue)
            return bindings
        }
    }
}

/// A batch statement bound to its recipients' usernames (`$1`) and its senders' ids (`$2`).
protocol PartiesStatement: PostgresStatement {
    var usernames: [String] { get }
    var senders: [UUID] { get }
}

extension PartiesStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(usernames)
        bindings.append(senders)
        return bindings
    }
}
