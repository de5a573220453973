import Foundation
import PlazaTestSupport
import PostgresNIO
import SQLKit
import Testing

@testable import PlazaServer

/// `SQLDatabase.kept` on PostgreSQL: a statement prepared once per connection by its text, then executed by name with
/// each call's values.
@Suite(.enabled(if: TestEngine.enabled.contains(.postgres), "needs PLAZA_TEST_DATABASE_URL"))
struct KeptStatementsTests {
    @Test func aKeptStatementIsPreparedOnceAndAnswersEachCallWithItsValues() async throws {
        try await TestPlaza.withServices(.postgres) { services in
            try await services.database.withSession { db in
                let marker = UUID().uuidString
                let calls = [("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7)]
                for (word, number) in calls {
                    let row = try #require(
                        try await db.kept.raw(
                            """
                            SELECT \(bind: word) || '!' AS word, CAST(\(bind: number) AS BIGINT) * 10 AS number, \
                            \(literal: marker) AS marker
                            """
                        ).first()
                    )
                    #expect(try row.decode(column: "word", as: String.self) == "\(word)!")
                    #expect(try row.decode(column: "number", as: Int.self) == number * 10)
                }
                let held = try await db.raw(
                    """
                    SELECT name, generic_plans, custom_plans FROM pg_prepared_statements \
                    WHERE name LIKE 'plaza_kept_%' AND statement LIKE \(bind: "%" + marker + "%")
                    """
                ).all()
                #expect(held.count == 1, "one statement on the server for seven calls")
                // Planned with its values five times, then once without them (PostgreSQL's `auto` plan cache mode).
                #expect(try held.first?.decode(column: "custom_plans", as: Int.self) == 5)
                #expect(try held.first?.decode(column: "generic_plans", as: Int.self) == 2)
            }
        }
    }

    @Test func valuesOfOtherTypesOrNilAreKeptApartOrRunAsTheyAre() async throws {
        try await TestPlaza.withServices(.postgres) { services in
            let db = services.database.sql
            let text: SQLQueryString = "SELECT CAST(\(bind: "7") AS TEXT) AS v"
            let number: SQLQueryString = "SELECT CAST(\(bind: 7) AS TEXT) AS v"
            let none: SQLQueryString = "SELECT CAST(\(bind: String?.none) AS TEXT) AS v"
            #expect(try await db.kept.raw(text).first()?.decode(column: "v", as: String.self) == "7")
            #expect(try await db.kept.raw(number).first()?.decode(column: "v", as: String.self) == "7")
            #expect(try await db.kept.raw(none).first()?.decode(column: "v", as: String?.self) == nil)
            let slot = { (query: SQLQueryString) throws -> Int? in
                let (sql, binds) = db.serialize(query)
                let types = try #require(try PostgresKeptStatements.bindings(binds)).1
                return PostgresKeptStatements.shared.slot(sql: sql, types: types)?.number
            }
            let (first, second) = (try slot(text), try slot(number))
            #expect(first != nil && second != nil && first != second, "a text and a number: two statements")
            #expect(try PostgresKeptStatements.bindings(db.serialize(none).binds) == nil, "a nil runs unkept")
        }
    }

    /// PostgresNIO keeps a failed prepare's error for the connection's life; Plaza lets such a connection go, so the
    /// statement works once what it needs exists.
    @Test func aStatementThatFailedToPrepareWorksOnceItCan() async throws {
        try await TestPlaza.withServices(.postgres) { services in
            let db = services.database.sql
            let query: SQLQueryString = "SELECT n FROM kept_later WHERE n = \(bind: 4)"
            await #expect(throws: (any Error).self) { try await db.kept.raw(query).all() }
            try await db.raw("CREATE TABLE kept_later (n bigint)").run()
            try await db.raw("INSERT INTO kept_later VALUES (4)").run()
            for _ in 0..<3 {
                #expect(try await db.kept.raw(query).first()?.decode(column: "n", as: Int.self) == 4)
            }
        }
    }

    @Test func slotTypesAreDistinctForEveryNumber() {
        let names = (1...300).map { String(reflecting: KeptSlots.type($0)) }
        #expect(Set(names).count == 300)
        #expect((1...300).allSatisfy { KeptSlots.type($0).number == $0 })
    }
}
