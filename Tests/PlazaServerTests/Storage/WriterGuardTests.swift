import Foundation
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// On SQLite a write through `database.sql` inside a transaction body waits for the transaction that waits for it:
/// debug builds stop at once and say why, instead of hanging.
@Suite struct WriterGuardTests {
    @Test func aWriteThroughSqlInsideATransactionStopsWithAMessage() async throws {
        await #expect(processExitsWith: .failure) {
            try await TestPlaza.withServices(.sqlite) { services in
                let database = services.database
                try await database.transaction { _ in
                    try await database.sql.raw("DELETE FROM rate_limit_events").run()
                }
            }
        }
    }

    @Test func theTransactionsOwnConnectionAndOtherTasksAreFine() async throws {
        try await TestPlaza.withServices(.sqlite) { services in
            let database = services.database
            try await database.transaction { db in
                try await db.raw("DELETE FROM rate_limit_events").run()
            }
            // Another task queues for the writer while a transaction holds it, and gets it afterwards.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await database.transaction { db in try await db.raw("DELETE FROM rate_limit_events").run() }
                }
                group.addTask { try await database.sql.raw("DELETE FROM rate_limit_events").run() }
                try await group.waitForAll()
            }
        }
    }

    /// A lone SELECT in raw SQL, as the builders' SELECTs, reads on a reader connection: it answers while a transaction
    /// holds the writer, and sees the last commit, not the transaction's rows.
    @Test func aLoneRawSelectReadsTheLastCommitBesideAnOpenTransaction() async throws {
        try await TestPlaza.withServices(.sqlite) { services in
            let database = services.database
            let count: SQLQueryString = "SELECT COUNT(*) AS n FROM rate_limit_events WHERE bucket = 'reader-test'"
            try await database.transaction { db in
                try await db.raw(
                    """
                    INSERT INTO rate_limit_events (id, bucket, subject, occurred_at) \
                    VALUES (\(bind: UUID()), 'reader-test', 'x', \(bind: Date()))
                    """
                ).run()
                #expect(try await db.raw(count).first()?.decode(column: "n", as: Int.self) == 1)
                #expect(try await database.sql.raw(count).first()?.decode(column: "n", as: Int.self) == 0)
            }
            #expect(try await database.sql.raw(count).first()?.decode(column: "n", as: Int.self) == 1)
        }
    }

    /// A SELECT built up clause by clause (as the market's feed is: each `+` nests what came before) still goes to a
    /// reader: it answers beside an open transaction instead of queueing for the writer.
    @Test func aSelectBuiltClauseByClauseReadsBesideAnOpenTransaction() async throws {
        try await TestPlaza.withServices(.sqlite) { services in
            let database = services.database
            var built: SQLQueryString = "SELECT COUNT(*) AS n FROM rate_limit_events WHERE 1 = 1"
            for _ in 0..<40 { built = built + " AND bucket = " + "'built-test'" }
            let count = built
            #expect(StatementTiming.operation(of: count) == "SELECT")
            try await database.transaction { db in
                try await db.raw(
                    """
                    INSERT INTO rate_limit_events (id, bucket, subject, occurred_at) \
                    VALUES (\(bind: UUID()), 'built-test', 'x', \(bind: Date()))
                    """
                ).run()
                #expect(try await database.sql.raw(count).first()?.decode(column: "n", as: Int.self) == 0)
            }
            #expect(try await database.sql.raw(count).first()?.decode(column: "n", as: Int.self) == 1)
        }
    }
}
