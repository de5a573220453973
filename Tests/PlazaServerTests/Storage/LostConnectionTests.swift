import Foundation
import HTTPTypes
import Logging
import PlazaCore
import PlazaTestSupport
import PostgresNIO
import SQLKit
import Testing

@testable import PlazaServer

/// A PostgreSQL connection ended under a transaction (`pg_terminate_backend`, a restart) is a retryable error at once,
/// never a statement waiting forever with its pool lease (issue 36: PostgresNIO loses a statement written after its
/// connection closed).
@Suite(.enabled(if: TestEngine.enabled.contains(.postgres), "needs PLAZA_TEST_DATABASE_URL"))
struct LostConnectionTests {
    @Test func aStatementAfterItsConnectionEndedFailsAndTheDatabaseGoesOn() async throws {
        try await TestPlaza.withServices(.postgres) { services in
            let database = services.database
            let outcome = await FirstAnswer.within(.seconds(20)) { () -> String in
                do {
                    try await database.transaction { db in
                        try await db.raw("CREATE TABLE lost_rows (n integer)").run()
                        try await Self.endBackend(of: db, using: database)
                        // Written after the close: PostgresNIO drops it unanswered.
                        try await db.raw("INSERT INTO lost_rows VALUES (1)").run()
                    }
                    return "committed"
                } catch let error as PlazaError {
                    return "\(error.status.code) \(error.code.rawValue)"
                } catch {
                    return "\(error)"
                }
            }
            #expect(outcome == "503 unavailable", "a retryable answer, not a hang")
            // The lease came back, the broken connection is gone, and nothing of the transaction stayed.
            let tables = try await database.sql.raw("SELECT count(*) AS n FROM pg_tables WHERE tablename = 'lost_rows'")
                .all()
            let count = try tables.first?.decode(column: "n", as: Int.self)
            #expect(count == 0)
        }
    }

    @Test func aStatementLostAsItsConnectionEndsIsAnsweredAfterTheGrace() async throws {
        try await TestPlaza.withServices(.postgres) { services in
            let database = services.database
            let outcome = await FirstAnswer.within(.seconds(20)) { () -> String in
                do {
                    return try await database.withSession { db in
                        let connection = try #require(db as? PostgresSessionDatabase).connection
                        // The guard let this statement through while its connection was open; the connection ends
                        // before it is written (the window between a check and a write, made wide).
                        return try await PostgresStatementGuard.run(on: connection) {
                            try await Self.endBackend(of: db, using: database)
                            _ = try await connection.query("SELECT 1", logger: Logger(label: "test")).collect()
                            return "answered"
                        }
                    }
                } catch let error as PlazaError {
                    return "\(error.status.code) \(error.code.rawValue)"
                } catch {
                    return "\(error)"
                }
            }
            #expect(outcome == "503 unavailable", "a retryable answer, not a hang")
            let rows = try await database.sql.raw("SELECT 1 AS one").all()
            #expect(rows.count == 1, "the pool goes on")
        }
    }

    /// Ends `db`'s backend from another connection, as an operator's `pg_terminate_backend`, and waits until the
    /// connection has seen its close.
    static func endBackend(of db: any SQLDatabase, using database: PlazaDatabase) async throws {
        let session = try #require(db as? PostgresSessionDatabase)
        let pid = try #require(
            try await session.connection.query("SELECT pg_backend_pid()", logger: Logger(label: "test")).collect().first
        )
        .decode(Int32.self)
        try await database.sql.raw("SELECT pg_terminate_backend(\(bind: pid))").run()
        try await session.connection.closeFuture.get()
    }
}
