import Foundation
import SQLKit

/// Applies the migrations the database has not seen yet, all in one transaction.
///
/// The applied names must be a prefix of `Migrations.all`: a database from another branch or a newer
/// Plaza stops start-up instead of being changed in ways nobody planned.
struct Migrator {
    let database: PlazaDatabase
    var migrations: [any Migration] = Migrations.all

    struct MismatchError: Error, CustomStringConvertible {
        let applied: [String]
        var description: String {
            "the database has migrations this Plaza does not know in that order (\(applied.joined(separator: ", "))); is it from a newer version?"
        }
    }

    /// Why the schema is not the one this Plaza knows, read without changing anything (no table is created): nil when
    /// every migration is applied, in order.
    func unapplied() async throws -> String? {
        let applied: [String]
        do {
            applied = try await database.sql.select().column("name").from("plaza_migrations").orderBy("position").all()
                .map { try $0.decode(column: "name", as: String.self) }
        } catch {
            return "the database is not migrated (no plaza_migrations table); run plaza migrate"
        }
        guard applied.count <= migrations.count, zip(applied, migrations).allSatisfy({ $0 == $1.name }) else {
            return MismatchError(applied: applied).description
        }
        guard applied.count == migrations.count else {
            return "the database lacks \(migrations.count - applied.count) migrations of this Plaza; run plaza migrate"
        }
        return nil
    }

    /// Returns the names it applied.
    @discardableResult
    func migrate() async throws -> [String] {
        let engine = database.engine
        let migrations = self.migrations
        // A migration may rewrite a large table: no statement or transaction limit (`PLAZA_DATABASE_TIMEOUT`) applies.
        return try await DatabaseTimeLimit.withoutLimits {
            try await database.transaction { db in
                if engine == .postgres {
                    try await db.raw("SET LOCAL statement_timeout = 0").run()
                    try await db.raw("SET LOCAL idle_in_transaction_session_timeout = 0").run()
                    // Several processes may start at once; one migrates, the others wait and find nothing to do.
                    try await db.raw("SELECT pg_advisory_xact_lock(7010)").run()
                }
                try await db.create(table: "plaza_migrations").ifNotExists()
                    .column("position", type: .bigint, .primaryKey(autoIncrement: false))
                    .column("name", type: .text, .notNull)
                    .column("applied_at", type: engine.timestamp, .notNull)
                    .run()
                let applied = try await db.select().column("name").from("plaza_migrations").orderBy("position")
                    .all().map { try $0.decode(column: "name", as: String.self) }
                guard applied.count <= migrations.count, zip(applied, migrations).allSatisfy({ $0 == $1.name }) else {
                    throw MismatchError(applied: applied)
                }
                var done: [String] = []
                for (position, migration) in migrations.enumerated().dropFirst(applied.count) {
                    try await migration.apply(on: db, engine: engine)
                    try await db.insert(into: "plaza_migrations")
                        .columns("position", "name", "applied_at")
                        .values(SQLBind(position), SQLBind(migration.name), SQLBind(Date()))
                        .run()
                    done.append(migration.name)
                }
                return done
            }
        }
    }
}
