import Foundation
import Logging
import PlazaCore
import PlazaTestSupport
import SQLKit
import SQLiteKit
import Testing

@testable import PlazaServer

/// Backups without a person (issue 40): `plaza serve` on SQLite keeps checked copies of its database in
/// `PLAZA_BACKUP_DIR`, one at start and one every `PLAZA_BACKUP_EVERY`, the `PLAZA_BACKUP_KEEP` newest kept.
@Suite struct BackupTests {
    static func refused(_ environment: [String: String]) -> [String: String] {
        do {
            _ = try PlazaConfiguration.fromEnvironment(environment)
            return [:]
        } catch let error as ConfigurationErrors {
            return Dictionary(error.errors.map { ($0.key, $0.description) }) { $1 }
        } catch {
            return ["?": "\(error)"]
        }
    }

    @Test func theSettingsAreReadOnceAndABadOneIsNamed() throws {
        let defaults = try PlazaConfiguration.fromEnvironment([:]).backups
        #expect(defaults.directory == nil && !defaults.enabled)
        #expect(defaults.every == 21_600 && defaults.keep == 28)
        func every(_ text: String) throws -> TimeInterval {
            try PlazaConfiguration.fromEnvironment(["PLAZA_BACKUP_DIR": "b", "PLAZA_BACKUP_EVERY": text]).backups.every
        }
        #expect(try every("6h") == 21_600)
        #expect(try every("90m") == 5_400)
        #expect(try every("1d") == 86_400)
        #expect(try every("1m") == 60)
        let set = try PlazaConfiguration.fromEnvironment([
            "PLAZA_BACKUP_DIR": "/var/backups/plaza", "PLAZA_BACKUP_KEEP": "3",
        ])
        #expect(set.backups.directory == "/var/backups/plaza" && set.backups.keep == 3)

        #expect(Self.refused(["PLAZA_BACKUP_EVERY": "59s"]).keys.sorted() == ["PLAZA_BACKUP_EVERY"])
        #expect(Self.refused(["PLAZA_BACKUP_EVERY": "often"])["PLAZA_BACKUP_EVERY"]?.contains("'often'") == true)
        #expect(Self.refused(["PLAZA_BACKUP_EVERY": "-6h"]).keys.sorted() == ["PLAZA_BACKUP_EVERY"])
        #expect(Self.refused(["PLAZA_BACKUP_KEEP": "0"]).keys.sorted() == ["PLAZA_BACKUP_KEEP"])
        #expect(Self.refused(["PLAZA_BACKUP_KEEP": "many"]).keys.sorted() == ["PLAZA_BACKUP_KEEP"])
        // Every bad key at once.
        #expect(
            Self.refused(["PLAZA_BACKUP_EVERY": "5s", "PLAZA_BACKUP_KEEP": "-1"]).keys.sorted() == [
                "PLAZA_BACKUP_EVERY", "PLAZA_BACKUP_KEEP",
            ]
        )
        // PostgreSQL has tools of its own: the folder stops start-up, naming itself and them.
        let postgres = Self.refused([
            "PLAZA_DATABASE_URL": "postgres://plaza@db:5432/plaza",
            "PLAZA_SECRET_KEY": String(repeating: "k", count: 40),
            "PLAZA_BACKUP_DIR": "/var/backups/plaza",
        ])
        #expect(postgres.keys.sorted() == ["PLAZA_BACKUP_DIR"])
        #expect(postgres["PLAZA_BACKUP_DIR"]?.hasPrefix("PLAZA_BACKUP_DIR ") == true)
        #expect(postgres["PLAZA_BACKUP_DIR"]?.contains("pg_dump") == true)
    }

    @Test func namesCarryTheUTCTimeAndOnlyPlazasNamesCount() throws {
        let date = Date(timeIntervalSince1970: 1_795_917_412)  // 2026-11-29T01:56:52Z
        #expect(BackupFolder.name(date) == "plaza-20261129T015652Z.sqlite")
        #expect(BackupFolder.name(date, check: .failed) == "plaza-20261129T015652Z.failed.sqlite")
        #expect(BackupFolder.parse("plaza-20261129T015652Z.sqlite")?.createdAt == date)
        #expect(BackupFolder.parse("plaza-20261129T015652Z.sqlite.partial")?.partial == true)
        for other in [
            "plaza.sqlite", "plaza-20261328T235652Z.sqlite", "plaza-20261129T015652Z.sqlite.bak", "notes.txt",
            "plaza-20261128T235652.sqlite", "xplaza-20261129T015652Z.sqlite",
        ] {
            #expect(BackupFolder.parse(other) == nil, "\(other)")
        }
    }

    /// A folder of its own per test, removed afterwards.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-backups-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func configure(
        _ folder: URL,
        every: TimeInterval = 21_600,
        keep: Int = 28
    ) -> (inout PlazaConfiguration)
        -> Void
    {
        { configuration in
            configuration.backups.directory = folder.path
            configuration.backups.every = every
            configuration.backups.keep = keep
        }
    }

    /// Rows of the copy at `path`, on a connection of its own.
    static func query(_ path: String, _ sql: String) async throws -> [SQLiteRow] {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            let rows = try await connection.query(sql)
            try await connection.close()
            return rows
        } catch {
            try? await connection.close()
            throw error
        }
    }

    @Test func aCopyTakenWhileTheServerWritesIsOneConsistentCheckedSnapshot() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestPlaza.withServices(.sqlite, configure: Self.configure(folder)) { services in
            let sql = services.database.sql
            try await sql.raw("CREATE TABLE backup_debits (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)").run()
            try await sql.raw("CREATE TABLE backup_credits (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)").run()
            try await sql.raw("INSERT INTO backup_debits VALUES (0, 7)").run()
            try await sql.raw("INSERT INTO backup_credits VALUES (0, 7)").run()
            let backups = try #require(services.backups)
            // Writers keep going while the copy is taken: each transaction writes both sides of one transfer.
            let entry = try await withThrowingTaskGroup(of: BackupFolder.Entry?.self) { group in
                for writer in 0..<3 {
                    group.addTask {
                        for step in 1...150 {
                            let id = writer * 1_000 + step
                            try await services.database.transaction { db in
                                try await db.raw("INSERT INTO backup_debits VALUES (\(bind: id), \(bind: step))").run()
                                try await db.raw("INSERT INTO backup_credits VALUES (\(bind: id), \(bind: step))").run()
                            }
                        }
                        return nil
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(50))
                    return await backups.backUp()
                }
                var entry: BackupFolder.Entry?
                for try await result in group { entry = entry ?? result }
                return entry
            }
            let copy = try #require(entry)
            #expect(copy.check == .ok && copy.bytes > 0)
            let path = folder.appendingPathComponent(copy.name).path
            let check = try await Self.query(path, "PRAGMA integrity_check")
            #expect(check.map { $0.column("integrity_check")?.string } == ["ok"])
            let sums = try await Self.query(
                path,
                "SELECT (SELECT count(*) FROM backup_debits) AS debits, (SELECT count(*) FROM backup_credits) AS credits"
            )
            let debits = sums.first?.column("debits")?.integer
            #expect(debits != nil && debits == sums.first?.column("credits")?.integer, "both sides of every transfer")
            #expect((debits ?? 0) >= 1, "the rows written before the copy started")
            // The copy is a whole Plaza database: the migrations' table is there.
            #expect(!(try await Self.query(path, "SELECT name FROM plaza_migrations")).isEmpty)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names == [copy.name], "no partial file left")
        }
    }

    @Test func retentionKeepsExactlyTheNewestGoodCopiesAndNothingElseIsTouched() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestPlaza.withServices(.sqlite, configure: Self.configure(folder, keep: 3)) { services in
            let backups = try #require(services.backups)
            let mine = ["notes.txt", "plaza-by-hand.sqlite", "plaza-20200101T000000Z.sqlite.bak"]
            for name in mine {
                FileManager.default.createFile(
                    atPath: folder.appendingPathComponent(name).path,
                    contents: Data("x".utf8)
                )
            }
            let start = Date(timeIntervalSince1970: 1_795_900_000)
            // A failed copy newer than every good one must not push a good one out.
            let failed = BackupFolder.name(start.addingTimeInterval(10 * 3_600), check: .failed)
            FileManager.default.createFile(atPath: folder.appendingPathComponent(failed).path, contents: Data("x".utf8))
            for hour in 0..<5 {
                #expect(await backups.backUp(now: start.addingTimeInterval(Double(hour) * 3_600))?.check == .ok)
            }
            let kept = backups.folder.entries()
            #expect(
                kept.filter { $0.check == .ok }.map(\.createdAt)
                    == [4, 3, 2].map { start.addingTimeInterval($0 * 3_600) }
            )
            #expect(kept.filter { $0.check == .failed }.map(\.name) == [failed])
            let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
            #expect(names == Set(mine + kept.map(\.name)))
            // Once a good copy newer than the failed one is kept, the failed one goes.
            _ = await backups.backUp(now: start.addingTimeInterval(11 * 3_600))
            #expect(backups.folder.entries().map(\.check) == [.ok, .ok, .ok])
        }
    }

    @Test func failedCopiesNeverCountAgainstTheGoodOnes() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = Date(timeIntervalSince1970: 1_795_900_000)
        let good = (0..<2).map { BackupFolder.name(start.addingTimeInterval(Double($0) * 60)) }
        let failed = (2..<6).map { BackupFolder.name(start.addingTimeInterval(Double($0) * 60), check: .failed) }
        for name in good + failed {
            FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data("x".utf8))
        }
        let removed = try BackupFolder(path: folder.path, keep: 2).prune()
        #expect(Set(removed) == Set(failed.prefix(2)), "the two oldest failed copies go, past two kept")
        #expect(
            BackupFolder(path: folder.path, keep: 2).entries().filter { $0.check == .ok }.map(\.name) == good.reversed()
        )
    }

    @Test func aDamagedFileFailsTheIntegrityCheck() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("damaged.sqlite").path
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await connection.query("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT)")
        _ = try await connection.query("CREATE INDEX t_text ON t (text)")
        for id in 0..<500 {
            _ = try await connection.query("INSERT INTO t VALUES (?, ?)", [.integer(id), .text("row \(id)")])
        }
        try await connection.close()
        #expect(try await SQLiteBackups.integrityCheck(path, logger: Logger(label: "test")))
        // Zero the pages past the first two: the schema stays readable, the table and index do not.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4_096 * 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4_096 * 4))
        try handle.close()
        #expect(try await !SQLiteBackups.integrityCheck(path, logger: Logger(label: "test")))
    }
}
