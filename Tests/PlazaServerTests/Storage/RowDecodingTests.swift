import Foundation
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Rows give back the ids, missing ids and dates that were written, on either engine, from the writer and from a
/// reader, and a column that holds no id is a decoding error rather than a made-up id.
@Suite struct RowDecodingTests {
    @Test(arguments: TestEngine.enabled)
    func idsComeBackAsWrittenAndAWrongOneIsAnError(_ engine: TestEngine) async throws {
        try await TestPlaza.withServices(engine) { services in
            let database = services.database
            let id = UUID()
            let at = Date(timeIntervalSince1970: 1_800_000_000.25)
            let bucket = "row-decoding-\(UUID().text)"
            try await database.transaction { db in
                try await db.raw(
                    """
                    INSERT INTO rate_limit_events (id, bucket, subject, occurred_at) \
                    VALUES (\(bind: id), \(bind: bucket), 'not-an-id', \(bind: at))
                    """
                ).run()
                // The writer's own rows, inside the transaction.
                let query: SQLQueryString = "SELECT id FROM rate_limit_events WHERE bucket = \(bind: bucket)"
                let row = try #require(try await db.raw(query).first())
                #expect(try row.decode(column: "id", as: UUID.self) == id)
                #expect(try row.decode(column: "id", as: UUID?.self) == id)
            }
            // A reader's rows (a lone SELECT).
            let row = try #require(
                try await database.sql.raw(
                    """
                    SELECT id, subject, occurred_at, NULL AS no_id, \
                    LOWER(CAST(id AS TEXT)) AS lower_id FROM rate_limit_events WHERE bucket = \(bind: bucket)
                    """
                ).first()
            )
            #expect(try row.decode(column: "id", as: UUID.self) == id)
            #expect(try row.decode(column: "lower_id", as: UUID.self) == id)
            #expect(try row.decode(column: "no_id", as: UUID?.self) == nil)
            #expect(try row.decode(column: "occurred_at", as: Date.self) == at)
            #expect(try row.decode(column: "subject", as: String.self) == "not-an-id")
            #expect(throws: (any Error).self) { try row.decode(column: "subject", as: UUID.self) }
            #expect(throws: (any Error).self) { try row.decode(column: "subject", as: UUID?.self) }
            #expect(throws: (any Error).self) { try row.decode(column: "absent", as: UUID.self) }
        }
    }
}
