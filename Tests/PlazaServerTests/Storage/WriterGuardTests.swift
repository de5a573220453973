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
}
