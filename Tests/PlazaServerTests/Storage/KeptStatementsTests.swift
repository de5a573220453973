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
                for (word, number) in [("one", 1), ("two", 2), ("three", 3)] {
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
                    SELECT name, generic_plans FROM pg_prepared_statements \
                    WHERE name LIKE 'plaza_kept_%' AND statement LIKE \(bind: "%" + marker + "%")
                    """
                ).all()
                #expect(held.count == 1, "one statement on the server for three calls")
                #expect(try held.first?.decode(column: "generic_plans", as: Int.self) == 3, "planned once, used thrice")
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

    @Test func slotTypesAreDistinctForEveryNumber() {
        let names = (1...300).map { String(reflecting: KeptSlots.type($0)) }
        #expect(Set(names).count == 300)
        #expect((1...300).allSatisfy { KeptSlots.type($0).number == $0 })
    }
}
