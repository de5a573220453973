import Foundation
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// A transfer batch sends its statements to SQLite's writer together (`pipeline`) instead of waiting for each.
@Suite struct SQLPipelineTests {
    @Test(arguments: TestEngine.enabled)
    func pipelinedStatementsRunInTheOrderSentAndEachKeepsItsOwnRows(_ engine: TestEngine) async throws {
        try await TestPlaza.withServices(engine) { services in
            try await services.database.sql.raw("CREATE TABLE pipeline_probe (v INTEGER NOT NULL)").run()
            let results = try await services.database.transaction { db in
                try await db.pipeline([
                    SQLQueryString("INSERT INTO pipeline_probe (v) VALUES (1) RETURNING v"),
                    SQLQueryString("UPDATE pipeline_probe SET v = v + 10 RETURNING v"),
                    SQLQueryString("INSERT INTO pipeline_probe (v) VALUES (5), (7) RETURNING v"),
                    SQLQueryString("SELECT CAST(SUM(v) AS INTEGER) AS v FROM pipeline_probe"),
                ])
                .map { rows in try rows.map { try $0.decode(column: "v", as: Int.self) } }
            }
            #expect(results == [[1], [11], [5, 7], [23]])
        }
    }

    /// SQLite rolls a transaction back by itself on a full disk or an I/O error; the statements already queued behind
    /// would then run and commit one by one. Here an explicit ROLLBACK stands in for that: what follows it commits nothing.
    @Test func statementsQueuedBehindARolledBackTransactionCommitNothing() async throws {
        try await TestPlaza.withServices(.sqlite) { services in
            try await services.database.sql.raw("CREATE TABLE pipeline_probe (v INTEGER NOT NULL)").run()
            await #expect(throws: (any Error).self) {
                try await services.database.transaction { db in
                    _ = try await db.pipeline([
                        SQLQueryString("INSERT INTO pipeline_probe (v) VALUES (1)"), SQLQueryString("ROLLBACK"),
                        SQLQueryString("INSERT INTO pipeline_probe (v) VALUES (2)"),
                    ])
                }
            }
            #expect(try await Self.values(services.database.sql) == [])
            // The writer commits again once the pipeline is over.
            try await services.database.transaction { db in
                _ = try await db.pipeline([SQLQueryString("INSERT INTO pipeline_probe (v) VALUES (3)")])
            }
            try await services.database.sql.raw("INSERT INTO pipeline_probe (v) VALUES (4)").run()
            #expect(try await Self.values(services.database.sql) == [3, 4])
        }
    }

    /// SQLite's writer sends a transaction's BEGIN with its first statement: that statement is still inside the
    /// transaction (a failure afterwards takes it back), and a transaction that sent nothing commits nothing.
    @Test(arguments: TestEngine.enabled)
    func aTransactionsFirstStatementRollsBackWithItAndAnEmptyOneIsFine(_ engine: TestEngine) async throws {
        struct Abandon: Error {}
        try await TestPlaza.withServices(engine) { services in
            try await services.database.sql.raw("CREATE TABLE pipeline_probe (v INTEGER NOT NULL)").run()
            await #expect(throws: Abandon.self) {
                try await services.database.transaction { db in
                    try await db.raw("INSERT INTO pipeline_probe (v) VALUES (1)").run()
                    throw Abandon()
                }
            }
            await #expect(throws: Abandon.self) {
                try await services.database.transaction { db in
                    _ = try await db.pipeline([SQLQueryString("INSERT INTO pipeline_probe (v) VALUES (2)")])
                    throw Abandon()
                }
            }
            try await services.database.transaction { _ in }
            await #expect(throws: Abandon.self) { try await services.database.transaction { _ in throw Abandon() } }
            let kept = try await services.database.transaction { db in
                try await db.raw("INSERT INTO pipeline_probe (v) VALUES (3) RETURNING v").all().map {
                    try $0.decode(column: "v", as: Int.self)
                }
            }
            #expect(kept == [3])
            #expect(try await Self.values(services.database.sql) == [3])
        }
    }

    static func values(_ db: any SQLDatabase) async throws -> [Int] {
        try await db.raw("SELECT v FROM pipeline_probe ORDER BY v").all().map {
            try $0.decode(column: "v", as: Int.self)
        }
    }
}
