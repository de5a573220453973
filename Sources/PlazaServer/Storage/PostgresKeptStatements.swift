import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit
import Synchronization

/// The databases that can keep a statement prepared by its text: PostgreSQL's pool and its sessions.
protocol KeepsStatements: SQLDatabase {
    func executeKept(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws
}

extension SQLDatabase {
    /// This database, running each statement as one the server keeps prepared by its text: PostgreSQL parses and plans
    /// it once per connection instead of at every call (a market feed page: 0.1 ms to parse and 0.8 ms to plan against
    /// 0.4 ms to run). SQLite keeps every statement already (`SQLiteStatementCache`), so there it is the database itself.
    ///
    /// PostgreSQL plans a named statement with its values for its first five runs, then once and for all without them
    /// when that plan is estimated to cost no more (`plan_cache_mode=auto`): keep only a statement whose one plan suits
    /// every value it is given. A value the planner must know goes into the text as a literal (the feed's page size),
    /// and a search whose best plan depends on its words takes one text per plan (see `ListingStore.matching`).
    var kept: any SQLDatabase {
        guard let base = self as? any KeepsStatements else { return self }
        return KeptStatementsDatabase(keeper: base)
    }
}

/// `SQLDatabase.kept` on PostgreSQL: every statement goes to `executeKept`.
struct KeptStatementsDatabase: ForwardingSQLDatabase {
    let keeper: any KeepsStatements
    var base: any SQLDatabase { keeper }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await keeper.executeKept(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await keeper.withSession { try await closure($0.kept) }
    }
}

/// The process's kept statements: each text (with the types of its values) gets a number once, and a type of its own,
/// `KeptStatement<Slot>`, since PostgresNIO names a prepared statement by its type and prepares it on each connection
/// at its first use there. Past `capacity` texts, a statement runs as it is, so that no caller can fill the server's
/// memory with shapes (a connection keeps what it prepared for as long as it lives).
final class PostgresKeptStatements: Sendable {
    static let shared = PostgresKeptStatements()
    static let capacity = 256

    struct Entry: Sendable {
        let sql: String
        let types: [PostgresDataType]
        let slot: any KeptSlot.Type
    }

    private struct Key: Hashable {
        let sql: String
        let types: [PostgresDataType]
    }

    private let state = Mutex<(numbers: [Key: Int], entries: [Entry])>(([:], []))

    /// The slot of `sql` with values of `types`, given at its first use; nil once `capacity` texts have one.
    func slot(sql: String, types: [PostgresDataType]) -> (any KeptSlot.Type)? {
        state.withLock { state in
            let key = Key(sql: sql, types: types)
            if let number = state.numbers[key] { return state.entries[number - 1].slot }
            guard state.entries.count < Self.capacity else { return nil }
            let number = state.entries.count + 1
            let entry = Entry(sql: sql, types: types, slot: KeptSlots.type(number))
            state.entries.append(entry)
            state.numbers[key] = number
            return entry.slot
        }
    }

    func entry(_ number: Int) -> Entry { state.withLock { $0.entries[number - 1] } }

    /// `binds` as PostgresNIO sends them, with their types; nil when one of them cannot be sent the same way every
    /// time (a nil, whose type the server infers, or a value without a PostgreSQL encoding of its own).
    static func bindings(_ binds: [any Encodable & Sendable]) throws -> (PostgresBindings, [PostgresDataType])? {
        var bindings = PostgresBindings(capacity: binds.count)
        var types: [PostgresDataType] = []
        types.reserveCapacity(binds.count)
        for bind in binds {
            guard let value = bind as? any PostgresThrowingDynamicTypeEncodable else { return nil }
            types.append(value.psqlType)
            try bindings.append(value, context: .default)
        }
        return (bindings, types)
    }
}

/// A kept statement's number as a type: `KeptSlots.type(6)` is `SlotBit0<SlotBit1<SlotOne>>` (binary 110).
protocol KeptSlot: Sendable {
    static var number: Int { get }
}

enum SlotOne: KeptSlot {
    static var number: Int { 1 }
}

enum SlotBit0<High: KeptSlot>: KeptSlot {
    static var number: Int { High.number * 2 }
}

enum SlotBit1<High: KeptSlot>: KeptSlot {
    static var number: Int { High.number * 2 + 1 }
}

enum KeptSlots {
    /// The slot type of `number` (1 or more).
    static func type(_ number: Int) -> any KeptSlot.Type {
        guard number > 1 else { return SlotOne.self }
        let high = type(number / 2)
        return number % 2 == 0 ? bit0(high) : bit1(high)
    }

    private static func bit0<High: KeptSlot>(_ high: High.Type) -> any KeptSlot.Type { SlotBit0<High>.self }
    private static func bit1<High: KeptSlot>(_ high: High.Type) -> any KeptSlot.Type { SlotBit1<High>.self }
}

/// The kept statement of `Slot`: its name, text and value types from `PostgresKeptStatements`.
struct KeptStatement<Slot: KeptSlot>: PostgresStatement {
    static var name: String { "plaza_kept_\(Slot.number)" }
    static var sql: String { PostgresKeptStatements.shared.entry(Slot.number).sql }
    static var bindingDataTypes: [PostgresDataType] { PostgresKeptStatements.shared.entry(Slot.number).types }
    let bindings: PostgresBindings
    func makeBindings() throws -> PostgresBindings { bindings }
}

extension PostgresSessionDatabase: KeepsStatements {
    /// `query` as a kept statement on this session's connection (prepared there at its first use).
    func executeKept(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (text, binds) = serialize(query)
        guard let (bindings, types) = try PostgresKeptStatements.bindings(binds),
            let slot = PostgresKeptStatements.shared.slot(sql: text, types: types)
        else { return try await execute(sql: query, onRow) }
        let rows: [PostgresRow]
        do {
            rows = try await run(slot, bindings)
        } catch let error as PSQLError where error.code == .server {
            // PostgresNIO keeps the error of a statement that failed to prepare for as long as its connection lives
            // (a migration's lock held the parse past the statement timeout, say): a new connection prepares afresh.
            let closing: EventLoopFuture<Void> = connection.close()
            _ = closing
            throw error
        }
        for row in rows { onRow(row.sql()) }
    }

    private func run<Slot: KeptSlot>(_ slot: Slot.Type, _ bindings: PostgresBindings) async throws -> [PostgresRow] {
        try await run(KeptStatement<Slot>(bindings: bindings))
    }
}

extension PostgresClientSQLDatabase: KeepsStatements {
    func executeKept(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await lease { connection in try await self.session(on: connection).executeKept(sql: query, onRow) }
    }
}
