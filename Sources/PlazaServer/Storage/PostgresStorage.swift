import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit
import ServiceLifecycle
import Synchronization

/// An `SQLDatabase` over PostgresNIO's `PostgresClient` pool: each statement leases a connection,
/// a session keeps one leased for its whole body. (postgres-kit has no bridge from the client to SQLKit.)
struct PostgresClientSQLDatabase: AsyncSQLDatabase {
    let client: PostgresClient
    let logger: Logger
    /// How long to wait for a pooled connection and for each statement (`PLAZA_DATABASE_TIMEOUT`); nil for ever.
    var timeout: Duration? = nil
    /// Every statement of its sessions is reported to it (`db_client_operation_duration_seconds`).
    let timing = StatementTiming(system: "postgresql")
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { PostgresDialect() }
    var queryLogLevel: Logger.Level? { .trace }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await withSession { try await $0.execute(sql: query, onRow) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let box = try await lease { connection in
            Box(try await closure(self.session(on: connection)))
        }
        return box.value
    }

    /// Runs `statement` on a pooled connection; its rows.
    func run<Statement: PostgresStatement>(_ statement: Statement) async throws -> [PostgresRow] {
        try await lease { connection in try await self.session(on: connection).run(statement) }
    }

    func session(on connection: PostgresConnection) -> PostgresSessionDatabase {
        PostgresSessionDatabase(connection: connection, logger: logger, timeout: timeout, timing: timing)
    }

    /// `body` on a pooled connection, or `databaseTimeout` when none is handed out within the timeout (a database
    /// that is down, restarting or hung: the pool keeps trying to connect, and without this the request would wait
    /// with it). Once the time is up a connection that comes later runs nothing.
    func lease<R: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> R
    ) async throws -> R {
        guard let limit = DatabaseTimeLimit.unbounded ? nil : timeout else {
            return try await client.withConnection(body)
        }
        let claim = Atomic<Int>(0)  // 0 waiting, 1 leased, 2 too late
        let timer = Mutex<Scheduled<Void>?>(nil)
        let client = client
        return try await FirstAnswer.of(
            { () async -> Result<R, any Error> in
                do {
                    return .success(
                        try await client.withConnection { connection in
                            guard
                                claim.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing)
                                    .exchanged
                            else { throw PlazaError.databaseTimeout }
                            return try await body(connection)
                        }
                    )
                } catch {
                    return .failure(error)
                }
            },
            rival: { answer in
                let scheduled = eventLoop.scheduleTask(in: .nanoseconds(Int64(limit.wholeMilliseconds) * 1_000_000)) {
                    if claim.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged {
                        answer(.failure(PlazaError.databaseTimeout))
                    }
                }
                timer.withLock { $0 = scheduled }
            },
            done: { timer.withLock { $0?.cancel() } }
        ).get()
    }

    /// Carries a session's result, whatever its type, through the pool's `Sendable` lease.
    private struct Box<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}

/// One leased connection: SQLKit for most statements, and the connection itself for `PostgresStatement`s.
struct PostgresSessionDatabase: AsyncSQLDatabase {
    let connection: PostgresConnection
    let logger: Logger
    /// The server stops a statement after this (`statement_timeout`); a hung server is given one second more.
    let timeout: Duration?
    private let sql: any SQLDatabase

    let timing: StatementTiming

    init(
        connection: PostgresConnection,
        logger: Logger,
        timeout: Duration? = nil,
        timing: StatementTiming = .unobserved
    ) {
        self.connection = connection
        self.logger = logger
        self.timeout = timeout
        self.timing = timing
        sql = connection.sql(queryLogLevel: .trace, logger: logger)
    }

    /// How long a statement may go unanswered before its connection is given up (nil: without limits).
    private var hangLimit: Duration? {
        DatabaseTimeLimit.unbounded ? nil : timeout.map { $0 + .seconds(1) }
    }

    var eventLoop: any EventLoop { connection.eventLoop }
    var dialect: any SQLDialect { sql.dialect }
    var queryLogLevel: Logger.Level? { .trace }

    /// Every statement goes through `PostgresStatementGuard`: a connection lost under it is an error, never a hang.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try DatabaseTimeLimit.checkTransaction()
        try await timing.measure(StatementTiming.operation(of: query)) {
            try await PostgresStatementGuard.run(on: connection, within: hangLimit) { [sql] in
                try await sql.execute(sql: query, onRow)
            }
        }
    }

    /// Runs `statement` on this session's connection; its rows.
    func run<Statement: PostgresStatement>(_ statement: Statement) async throws -> [PostgresRow] {
        try DatabaseTimeLimit.checkTransaction()
        return try await timing.measure(StatementTiming.operation(ofSQL: Statement.sql)) {
            try await PostgresStatementGuard.run(on: connection, within: hangLimit) { [connection, logger] in
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                return rows
            }
        }
    }
}

/// The one capability by which store methods tell the engines apart: running prepared `PostgresStatement`s. Only
/// PostgreSQL's pool and sessions adopt it; on SQLite a store method takes its SQLKit path. Outside `Storage/`,
/// code asks `db.prepared` and never casts to a PostgreSQL type (`.ci/run` checks).
protocol PreparedStatements: SQLDatabase {
    func run<Statement: PostgresStatement>(_ statement: Statement) async throws -> [PostgresRow]
}

extension SQLDatabase {
    /// This database when it runs prepared statements (PostgreSQL), else nil (SQLite).
    var prepared: (any PreparedStatements)? { self as? any PreparedStatements }
}

extension PostgresClientSQLDatabase: PreparedStatements {}
extension PostgresSessionDatabase: PreparedStatements {}

/// A statement whose text never changes, for the hot paths: PostgresNIO prepares it once per connection, so
/// PostgreSQL parses and plans it once instead of every time, and nothing builds or serializes SQL per call. Lists
/// go in as arrays (`= ANY($1)`, `unnest(...)`) so that the text stays the same whatever their length. Its rows come
/// back as they are, for the caller to decode.
protocol PostgresStatement: PostgresPreparedStatement where Row == PostgresRow {}

extension PostgresStatement {
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// NIO's event loops, handing out the next one every time. The pool opens its connections on `any()`, which for
/// NIO's own group is the loop it is called from: every connection landed on one loop, and since a task resumes
/// where its query's answer arrives, so did nearly all request work (`plaza bench ledger` on PostgreSQL: one loop
/// at 0.82 of a core, the other at 0.11).
final class RoundRobinEventLoops: EventLoopGroup, Sendable {
    let group = MultiThreadedEventLoopGroup.singleton
    func next() -> any EventLoop { group.next() }
    func any() -> any EventLoop { group.next() }
    func makeIterator() -> EventLoopIterator { group.makeIterator() }
    func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable ((any Error)?) -> Void) {
        // The singleton outlives every pool.
        queue.async { callback(nil) }
    }
}

/// Runs the client's pool for as long as the application runs.
struct PostgresClientService: Service {
    let client: PostgresClient
    func run() async throws {
        await cancelWhenGracefulShutdown { await client.run() }
    }
}

extension PlazaDatabase {
    /// A pool of connections to the database that `url` (`postgres://user:password@host:port/name`) names.
    ///
    /// `?sslmode=disable|prefer|require` chooses TLS (default `prefer`); `?search_path=schema` picks a schema,
    /// which the tests use to give every test a database of its own.
    /// `timeout` bounds the wait for a connection, each statement (the server's `statement_timeout`) and each
    /// transaction (see `DatabaseTimeLimit`).
    public static func postgres(url: URL, timeout: Duration? = .seconds(5), logger: Logger) throws -> PlazaDatabase {
        let configuration = try postgresConfiguration(url: url, timeout: timeout)
        let client = PostgresClient(
            configuration: configuration,
            eventLoopGroup: RoundRobinEventLoops(),
            backgroundLogger: logger
        )
        return PlazaDatabase(
            engine: .postgres,
            timeout: timeout,
            sql: PostgresClientSQLDatabase(client: client, logger: logger, timeout: timeout),
            service: PostgresClientService(client: client),
            close: {}
        )
    }

    /// The pool configuration `url` describes (also used by the tests to create their schemas).
    public static func postgresConfiguration(
        url: URL,
        timeout: Duration? = nil
    ) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host,
            !host.isEmpty
        else {
            throw ConfigurationError(
                key: "PLAZA_DATABASE_URL",
                message: "must look like postgres://user:password@host:5432/database"
            )
        }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { $1 }
        )
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        default:
            throw ConfigurationError(key: "PLAZA_DATABASE_URL", message: "sslmode must be disable, prefer or require")
        }
        let database = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: components.user?.removingPercentEncoding ?? "postgres",
            password: components.password?.removingPercentEncoding,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
        if let schema = query["search_path"], !schema.isEmpty {
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        if let timeout {
            // The server ends a statement past the timeout itself (57014, answered 503), and a session left idle in
            // a transaction (a process that hung or lost its way) after twice that, releasing its locks.
            let milliseconds = timeout.wholeMilliseconds
            configuration.options.additionalStartupParameters += [
                ("statement_timeout", String(milliseconds)),
                ("idle_in_transaction_session_timeout", String(max(10_000, 2 * milliseconds))),
            ]
            configuration.options.connectTimeout = max(timeout, .seconds(1))
        }
        configuration.options.maximumConnections = Int(query["pool_size"] ?? "") ?? 10
        return configuration
    }
}

extension PlazaDatabase {
    /// Terminates every other connection to this PostgreSQL database (as `pg_terminate_backend` in an incident): what
    /// `plaza bench chaos` does to the server it runs. Does nothing on SQLite. The number of connections ended.
    package func terminateOtherBackends() async throws -> Int {
        guard engine == .postgres else { return 0 }
        let rows = try await sql.raw(
            """
            SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
            """
        ).all()
        return rows.count
    }
}
