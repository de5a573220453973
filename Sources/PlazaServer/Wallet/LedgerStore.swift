import Foundation
import PlazaCore
import PostgresNIO
import SQLKit

/// Whose a ledger account is. Only `system` accounts may go below zero.
package enum LedgerAccountKind: String, Sendable {
    case user
    case business
    case system
}

/// Plaza's own accounts, one per currency, at fixed ids.
package enum SystemAccount {
    /// The mirror of money held at the card processor: top-ups take from it, settled withdrawals give back.
    package static let gatewayClearing = UUID(uuidString: "00000000-0000-0000-0000-00000000c1ea")!
    /// Withdrawals on their way to a bank.
    static let payoutsInTransit = UUID(uuidString: "00000000-0000-0000-0000-0000000000a7")!
    /// Marketplace buyers' money held until the handshake (never below zero: it only gives back what it took).
    static let marketHolds = UUID(uuidString: "00000000-0000-0000-0000-0000000000d1")!
    /// What the card shop took for orders (the operator's revenue), less what it refunded.
    static let cardSales = UUID(uuidString: "00000000-0000-0000-0000-0000000000c5")!
}

/// One leg of a journal entry: `amount` (negative = out of the account) for `owner`'s account in the entry's currency.
package struct Posting: Sendable, Equatable {
    package var owner: UUID
    package var kind: LedgerAccountKind
    package var amount: Int64

    package init(owner: UUID, kind: LedgerAccountKind, amount: Int64) {
        (self.owner, self.kind, self.amount) = (owner, kind, amount)
    }
}

/// A movement of money: postings that sum to zero, in one currency.
package struct JournalEntry: Sendable {
    var id = UUID.timeOrdered()
    /// `transfer`, `top_up`, `withdrawal`, `withdrawal_reversal`, `charge`, `refund`, `market_hold`, `market_release`,
    /// `market_refund`.
    var kind: String
    var referenceId: UUID
    var currency: String
    var postings: [Posting]
    var createdAt: Date
}

extension JournalEntry {
    package init(kind: String, referenceId: UUID, currency: String, postings: [Posting], createdAt: Date) {
        (self.kind, self.referenceId, self.currency, self.postings, self.createdAt) = (
            kind, referenceId, currency, postings, createdAt
        )
    }
}

/// Raised inside a transaction when a non-system account would go below zero; nothing of the entry stays.
struct InsufficientFunds: Error {
    let owner: UUID
}

/// All SQL of the double-entry ledger: accounts with cached balances, immutable entries and postings.
package struct LedgerStore: Sendable {
    package init() {}

    /// PostgreSQL's SUM of a BIGINT is a NUMERIC; both engines give an integer back with the cast.
    private static let sumOfAmounts = SQLRaw("CAST(SUM(amount) AS BIGINT)")

    /// Writes `entry` and moves the balances, in the caller's transaction. Accounts are touched in id order, so two
    /// entries on the same accounts never wait for each other in a circle (PostgreSQL's row locks).
    package func post(_ entry: JournalEntry, on db: any SQLDatabase) async throws {
        precondition(entry.postings.reduce(0) { $0 + $1.amount } == 0, "a journal entry must balance")
        for posting in entry.postings.sorted(by: { $0.owner.uuidString < $1.owner.uuidString }) {
            if posting.amount < 0, posting.kind != .system {
                guard try await debit(posting.owner, -posting.amount, entry.currency, at: entry.createdAt, on: db)
                else {
                    throw InsufficientFunds(owner: posting.owner)
                }
            } else {
                try await credit([posting], currency: entry.currency, at: entry.createdAt, on: db)
            }
        }
        try await write([entry], on: db)
    }

    /// Takes `amount` from `owner`'s account if the balance covers it; false (and nothing changed) when it does not,
    /// or when there is no account yet.
    func debit(
        _ owner: UUID,
        _ amount: Int64,
        _ currency: String,
        at time: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.update("wallet_accounts")
            .set("balance", to: SQLBinaryExpression(SQLIdentifier("balance"), .subtract, SQLBind(amount)))
            .set("updated_at", to: time)
            .where("owner_id", .equal, owner).where("currency", .equal, currency)
            .where("balance", .greaterThanOrEqual, SQLBind(amount))
            .returning("owner_id").first() != nil
    }

    /// Debits for many owners in one currency, one statement: at most one per owner.
    struct Debits: Sendable {
        var owners: [(owner: UUID, amount: Int64)]
        var currency: String
        var time: Date
    }

    /// Runs each of `groups` as one statement, in order (a later group sees what an earlier one took): per group, the
    /// owners whose balance covered their amount (only those changed). SQLite's writer gets them all at once
    /// (`pipeline`); PostgreSQL runs its prepared statement for each.
    func debit(_ groups: [Debits], on db: any SQLDatabase) async throws -> [Set<UUID>] {
        if let prepared = db.prepared {
            var paid: [Set<UUID>] = []
            for group in groups {
                let statement = LedgerStore.DebitStatement(
                    owners: group.owners.map(\.owner),
                    amounts: group.owners.map(\.amount),
                    time: group.time,
                    currency: group.currency
                )
                paid.append(Set(try await prepared.run(statement).map { try $0.decode(UUID.self) }))
            }
            return paid
        }
        // SQLite (PostgreSQL took the prepared path above).
        let statements = groups.map { group -> any SQLExpression in
            let values = group.owners.map { debit -> SQLQueryString in "(\(bind: debit.owner), \(bind: debit.amount))" }
            return """
                WITH v(o, a) AS (VALUES \(values.joined(separator: ", "))) \
                UPDATE wallet_accounts SET balance = balance - v.a, updated_at = \(bind: group.time) FROM v \
                WHERE wallet_accounts.owner_id = v.o AND wallet_accounts.currency = \(bind: group.currency) AND wallet_accounts.balance >= v.a \
                RETURNING owner_id
                """ as SQLQueryString
        }
        return try await db.pipeline(statements).map { rows in
            Set(try rows.map { try $0.decode(column: "owner_id", as: UUID.self) })
        }
    }

    /// Adds each posting's amount to its owner's account, opening accounts as needed; one statement. At most one
    /// posting per owner (PostgreSQL refuses to change a row twice in one statement).
    func credit(_ postings: [Posting], currency: String, at time: Date, on db: any SQLDatabase) async throws {
        guard let statement = creditStatement(postings, currency: currency, at: time, on: db) else { return }
        try await db.execute(sql: statement) { _ in }
    }

    /// The statement of `credit` (for `pipeline`); nil for no postings.
    func creditStatement(
        _ postings: [Posting],
        currency: String,
        at time: Date,
        on db: any SQLDatabase
    ) -> (any SQLExpression)? {
        guard !postings.isEmpty else { return nil }
        var insert = db.insert(into: "wallet_accounts").columns("owner_id", "currency", "kind", "balance", "updated_at")
        for posting in postings {
            insert = insert.values(
                SQLBind(posting.owner),
                SQLBind(currency),
                SQLBind(posting.kind.rawValue),
                SQLBind(posting.amount),
                SQLBind(time)
            )
        }
        return insert.onConflict(with: ["owner_id", "currency"]) {
            $0.set(
                "balance",
                to: SQLBinaryExpression(
                    SQLColumn("balance", table: "wallet_accounts"),
                    .add,
                    SQLColumn("balance", table: "excluded")
                )
            )
            .set(excludedValueOf: "updated_at")
        }
        .query
    }

    /// Writes journal entries and their postings (two statements however many entries), without moving balances.
    func write(_ entries: [JournalEntry], on db: any SQLDatabase) async throws {
        for statement in writeStatements(entries, on: db) { try await db.execute(sql: statement) { _ in } }
    }

    /// The statements of `write` (for `pipeline`); none for no entries.
    func writeStatements(_ entries: [JournalEntry], on db: any SQLDatabase) -> [any SQLExpression] {
        guard !entries.isEmpty else { return [] }
        var journal = db.insert(into: "journal_entries").columns("id", "kind", "reference_id", "created_at")
        var postings = db.insert(into: "postings").columns("entry_id", "owner_id", "currency", "amount")
        for entry in entries {
            precondition(entry.postings.reduce(0) { $0 + $1.amount } == 0, "a journal entry must balance")
            journal = journal.values(
                SQLBind(entry.id),
                SQLBind(entry.kind),
                SQLBind(entry.referenceId),
                SQLBind(entry.createdAt)
            )
            for posting in entry.postings {
                postings = postings.values(
                    SQLBind(entry.id),
                    SQLBind(posting.owner),
                    SQLBind(entry.currency),
                    SQLBind(posting.amount)
                )
            }
        }
        return [journal.query, postings.query]
    }

    /// `owner`'s balance per currency, from the cache.
    func balances(owner: UUID, on db: any SQLDatabase) async throws -> [String: Int64] {
        let rows = try await db.select().columns("currency", "balance").from("wallet_accounts").where(
            "owner_id",
            .equal,
            owner
        ).all()
        return Dictionary(
            uniqueKeysWithValues: try rows.map {
                (try $0.decode(column: "currency", as: String.self), try $0.decode(column: "balance", as: Int64.self))
            }
        )
    }

    /// One account whose cached balance differs from its postings, or a journal entry that does not sum to zero.
    struct Discrepancy: Sendable, CustomStringConvertible {
        var description: String
    }

    /// Recomputes every balance from the journal and checks that every entry balances; empty when all is well.
    func verify(on db: any SQLDatabase) async throws -> [Discrepancy] {
        var problems: [Discrepancy] = []
        let sums = try await db.select()
            .column("owner_id").column("currency").column(Self.sumOfAmounts, as: "total")
            .from("postings").groupBy("owner_id").groupBy("currency").all()
        var derived: [String: Int64] = [:]
        for row in sums {
            let key =
                "\(try row.decode(column: "owner_id", as: UUID.self)) \(try row.decode(column: "currency", as: String.self))"
            derived[key] = try row.decode(column: "total", as: Int64.self)
        }
        let accounts = try await db.select().columns("owner_id", "currency", "kind", "balance").from("wallet_accounts")
            .all()
        for row in accounts {
            let owner = try row.decode(column: "owner_id", as: UUID.self)
            let currency = try row.decode(column: "currency", as: String.self)
            let balance = try row.decode(column: "balance", as: Int64.self)
            let key = "\(owner) \(currency)"
            let expected = derived.removeValue(forKey: key) ?? 0
            if balance != expected {
                problems.append(
                    Discrepancy(description: "account \(key): cached balance \(balance), postings sum to \(expected)")
                )
            }
            if balance < 0, try row.decode(column: "kind", as: String.self) != LedgerAccountKind.system.rawValue {
                problems.append(Discrepancy(description: "account \(key) is overdrawn: \(balance)"))
            }
        }
        for (key, total) in derived.sorted(by: { $0.key < $1.key }) {
            problems.append(
                Discrepancy(description: "account \(key) has postings summing to \(total) but no account row")
            )
        }
        let unbalanced = try await db.select()
            .column("entry_id").column("currency").column(Self.sumOfAmounts, as: "total")
            .from("postings").groupBy("entry_id").groupBy("currency")
            .having(Self.sumOfAmounts, .notEqual, SQLLiteral.numeric("0")).all()
        for row in unbalanced {
            problems.append(
                Discrepancy(
                    description:
                        "entry \(try row.decode(column: "entry_id", as: UUID.self)) does not balance: \(try row.decode(column: "total", as: Int64.self))"
                )
            )
        }
        return problems
    }
}
