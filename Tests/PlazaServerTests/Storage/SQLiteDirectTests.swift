import Foundation
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// SQLite's writer runs statements through SQLite's C API with prepared statements kept (`SQLiteDirectDatabase`);
/// its readers are SQLiteNIO connections. What one writes, the other reads back alike.
@Suite struct SQLiteDirectTests {
    struct Sample: Codable, Equatable, Sendable {
        var id: UUID
        var name: String
        var empty: String
        var count: Int
        var ratio: Double
        var flag: Bool
        var when: Date
        var bytes: Data
        var missing: String?
        var tags: [String]
    }

    static let sample = Sample(
        id: UUID(),
        name: "Zoë's café ☕️ \u{1F600}",
        empty: "",
        count: -9_007_199_254_740_993,
        ratio: 0.1 + 0.2,
        flag: true,
        when: Date(timeIntervalSince1970: 1_764_000_000.5),
        bytes: Data([0, 1, 2, 255, 0]),
        missing: nil,
        tags: ["a", "b,c"]
    )

    @Test func valuesWrittenByTheWriterReadBackAlikeOnTheWriterAndOnAReader() async throws {
        try await TestPlaza.withServices(.sqlite) { services in
            let database = services.database
            try await database.sql.raw(
                """
                CREATE TABLE direct_probe (id TEXT, name TEXT, empty TEXT, count INTEGER, ratio REAL, flag INTEGER,
                "when" REAL, bytes BLOB, missing TEXT, tags TEXT)
                """
            ).run()
            try await database.transaction { db in
                try await db.insert(into: "direct_probe").model(Self.sample).run()
            }
            // The same statement twice: the second comes from the statement cache.
            for _ in 0..<2 {
                let written = try await database.transaction { db in
                    try await db.select().column("*").from("direct_probe").first(decoding: Sample.self)
                }
                #expect(written == Self.sample)
            }
            let read = try await database.sql.select().column("*").from("direct_probe").first(decoding: Sample.self)
            #expect(read == Self.sample)
        }
    }

    @Test func aKeptSelectSeesColumnsAddedOrRenamedLaterAndAFailedStatementRunsAgain() async throws {
        try await TestPlaza.withServices(.sqlite) { services in
            let database = services.database
            try await database.sql.raw("CREATE TABLE direct_probe (v INTEGER PRIMARY KEY)").run()
            let select: @Sendable () async throws -> [String] = {
                try await database.transaction { db in
                    try await db.raw("SELECT * FROM direct_probe").first()?.allColumns ?? []
                }
            }
            try await database.sql.raw("INSERT INTO direct_probe (v) VALUES (1)").run()
            #expect(try await select() == ["v"])
            try await database.sql.raw("ALTER TABLE direct_probe ADD COLUMN w TEXT").run()
            #expect(try await select() == ["v", "w"])
            let readBefore = try await database.sql.raw("SELECT * FROM direct_probe").first()?.allColumns
            #expect(readBefore == ["v", "w"])
            // As many columns as before, one named anew: the kept statement reads its names again.
            try await database.sql.raw("ALTER TABLE direct_probe RENAME COLUMN w TO x").run()
            #expect(try await select() == ["v", "x"])
            let read = try await database.sql.raw("SELECT * FROM direct_probe").first()?.allColumns
            #expect(read == ["v", "x"], "a reader's statements too")

            let insert: @Sendable (Int) async throws -> Void = { value in
                try await database.sql.raw("INSERT INTO direct_probe (v) VALUES (\(bind: value))").run()
            }
            await #expect(throws: SQLiteFailure.self) { try await insert(1) }
            try await insert(2)
            let count = try await database.transaction { db in
                try await db.raw("SELECT count(*) AS n FROM direct_probe").first()?.decode(column: "n", as: Int.self)
            }
            #expect(count == 2)
        }
    }
}
