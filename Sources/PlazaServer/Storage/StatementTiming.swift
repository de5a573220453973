import Foundation
import NIOCore
import SQLKit
import Synchronization

/// Tells an observer (the application's metrics) what each SQL statement did and how long it took.
///
/// Every statement passes one of two places: SQLite's `SerializedSQLDatabase` (its writer, its readers and the
/// writer's sessions) and PostgreSQL's `PostgresSessionDatabase`. Each owns one of these. Unobserved, a statement pays
/// one relaxed atomic load; observed, it reads the statement's first keyword, never serializes it.
final class StatementTiming: Sendable {
    typealias Observation = (operation: String, duration: Duration)

    /// For sessions made without one (nothing observes it).
    static let unobserved = StatementTiming()

    private let observer = CallbackSlot<Observation>()
    /// OpenTelemetry's `db.system.name` for the spans of these statements.
    let system: String

    init(system: String = "sqlite") {
        self.system = system
    }
    private let observed = Atomic<Bool>(false)

    /// Reports every later statement to `body`.
    func observe(_ body: @escaping @Sendable (Observation) -> Void) {
        observer.set(body)
        observed.store(true, ordering: .releasing)
    }

    var isObserved: Bool { observed.load(ordering: .relaxed) }

    /// Runs `body` (one statement), reporting its duration under `operation`, failed or not.
    func measure<T>(_ operation: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        if let tracer = PlazaTracer.current {
            let name = operation()
            let attributes: [(String, SpanValue)] = [
                ("db.system.name", .string(system)), ("db.operation.name", .string(name)),
            ]
            return try await tracer.span(name, kind: .client, attributes: attributes) { _ in
                try await timed(name, body)
            }
        }
        return try await timed(operation(), body)
    }

    private func timed<T>(_ operation: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        guard isObserved else { return try await body() }
        let start = ContinuousClock.now
        defer { observer((operation(), ContinuousClock.now - start)) }
        return try await body()
    }

    func report(_ operation: String, since start: ContinuousClock.Instant) {
        observer((operation, ContinuousClock.now - start))
    }
}

extension StatementTiming {
    /// The first keywords reported as they are; any other is `OTHER`, so that the label's values stay few.
    static let keywords: Set<String> = [
        "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "VALUES", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE",
        "CREATE", "ALTER", "DROP", "PRAGMA", "VACUUM", "ANALYZE", "LISTEN", "UNLISTEN", "NOTIFY", "SET", "SHOW",
        "TRUNCATE", "LOCK", "EXPLAIN", "REINDEX", "COPY",
    ]

    /// The operation of `query`: its kind for SQLKit's builders, the first keyword of raw SQL.
    static func operation(of query: any SQLExpression) -> String {
        switch query {
        case is SQLSelect, is SQLUnion: "SELECT"
        case is SQLInsert: "INSERT"
        case is SQLUpdate: "UPDATE"
        case is SQLDelete: "DELETE"
        case let raw as SQLRaw: operation(ofSQL: raw.sql)
        case let string as SQLQueryString: operation(ofFragmentsOf: string)
        default: "OTHER"
        }
    }

    /// The first keyword of `sql` (after blanks and opening parentheses), upper-cased, or `OTHER`.
    static func operation(ofSQL sql: String) -> String {
        let word = sql.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x28 }
            .prefix { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        guard !word.isEmpty, word.count <= 10 else { return "OTHER" }
        let keyword = String(Substring(word)).uppercased()
        return keywords.contains(keyword) ? keyword : "OTHER"
    }

    /// SQLKit keeps a query string's fragments internal; a mirror reads the first ones without serializing it all.
    /// Each `+` nests the string so far one level deeper (`"\(lhs)\(rhs)"`): a query built up clause by clause (the
    /// market's feed) starts dozens of levels down, and stopping early sent it to the writer as `OTHER`.
    private static func operation(ofFragmentsOf string: SQLQueryString, depth: Int = 0) -> String {
        guard depth < 256, let fragments = Mirror(reflecting: string).children.first?.value as? [any SQLExpression]
        else { return "OTHER" }
        for fragment in fragments {
            if let raw = fragment as? SQLRaw {
                if raw.sql.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x28 }) { continue }
                return operation(ofSQL: raw.sql)
            }
            if let inner = fragment as? SQLQueryString { return operation(ofFragmentsOf: inner, depth: depth + 1) }
            return operation(of: fragment)
        }
        return "OTHER"
    }
}

/// An `SQLDatabase` reporting each statement it runs on `base` to `timing` (SQLite's writer inside a session).
struct TimedSQLDatabase: ForwardingSQLDatabase {
    let base: any SQLDatabase
    let timing: StatementTiming

    /// Hands the statement on before returning, as `SQLiteWriterSession`'s pipelines need (they run in call order).
    func execute(
        sql query: any SQLExpression,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) -> EventLoopFuture<Void> {
        guard timing.isObserved else { return base.execute(sql: query, onRow) }
        let (start, operation, timing) = (ContinuousClock.now, StatementTiming.operation(of: query), timing)
        return base.execute(sql: query, onRow).always { _ in timing.report(operation, since: start) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await timing.measure(StatementTiming.operation(of: query)) { try await base.execute(sql: query, onRow) }
    }
}

/// The databases that time their statements (what `PlazaDatabase.sql` is on each engine).
protocol StatementTimed {
    var timing: StatementTiming { get }
}

extension SerializedSQLDatabase: StatementTimed {}
extension PostgresClientSQLDatabase: StatementTimed {}

extension PlazaDatabase {
    /// Reports every statement's first keyword and duration to `observer` (the metrics of the application).
    func observeStatements(_ observer: @escaping @Sendable (StatementTiming.Observation) -> Void) {
        (sql as? any StatementTimed)?.timing.observe(observer)
    }
}
