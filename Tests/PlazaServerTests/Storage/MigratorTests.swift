import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

@Suite struct MigratorTests {
    @Test(arguments: TestEngine.enabled)
    func migratingTwiceChangesNothing(_ engine: TestEngine) async throws {
        try await TestPlaza.withServices(engine) { services in
            let again = try await Migrator(database: services.database).migrate()
            #expect(again.isEmpty)
            let names = try await services.database.sql.select().column("name").from("plaza_migrations").orderBy(
                "position"
            ).all()
                .map { try $0.decode(column: "name", as: String.self) }
            #expect(names == Migrations.all.map(\.name))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aDatabaseFromAnotherVersionStopsStartUp(_ engine: TestEngine) async throws {
        try await TestPlaza.withServices(engine) { services in
            try await services.database.sql.update("plaza_migrations").set("name", to: "SomethingElse").where(
                "position",
                .equal,
                0
            ).run()
            await #expect(throws: Migrator.MismatchError.self) {
                try await Migrator(database: services.database).migrate()
            }
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aFailedTransactionLeavesNothingBehind(_ engine: TestEngine) async throws {
        try await TestPlaza.withServices(engine) { services in
            struct Boom: Error {}
            await #expect(throws: Boom.self) {
                try await services.database.transaction { db in
                    try await db.insert(into: "outbox_emails")
                        .columns(
                            "id",
                            "to_address",
                            "subject",
                            "text_body",
                            "created_at",
                            "next_attempt_at",
                            "attempts"
                        )
                        .values(
                            SQLBind(UUID()),
                            SQLBind("x@y.z"),
                            SQLBind("s"),
                            SQLBind("t"),
                            SQLBind(Date()),
                            SQLBind(Date()),
                            SQLBind(0)
                        )
                        .run()
                    throw Boom()
                }
            }
            let count = try await services.database.sql.select().column(
                SQLFunction("COUNT", args: SQLLiteral.all),
                as: "n"
            )
            .from("outbox_emails").first()?.decode(column: "n", as: Int.self)
            #expect(count == 0)
        }
    }

    @Test func backupsAreConsistentCopiesWhileTheServerRuns() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            _ = try await AccountsDriver(client).signedIn("zoe")
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-backup-\(UUID()).sqlite")
                .path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await services.backup(to: path)
            await #expect(throws: (any Error).self) { try await services.backup(to: path) }

            let copy = try await PlazaDatabase.sqlite(path: path, logger: services.logger)
            let names = try await copy.sql.select().column("username").from("users").all().map {
                try $0.decode(column: "username", as: String.self)
            }
            try await copy.close()
            #expect(names.filter { $0 != AccountsDriver.admin } == ["zoe"])
        }
    }
}
