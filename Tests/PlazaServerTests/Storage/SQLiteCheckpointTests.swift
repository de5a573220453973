import Foundation
import Logging
import PlazaTestSupport
import SQLiteKit
import Testing

@testable import PlazaServer

/// SQLite writes to its log first and copies the log back into the database file at checkpoints. While Plaza runs,
/// its checkpointer does that soon after every write, beside the writer, instead of SQLite doing it inside a commit
/// every thousand pages (a stall of tens of milliseconds for every transfer waiting behind that commit).
@Suite struct SQLiteCheckpointTests {
    @Test func whatPlazaWritesReachesTheDatabaseFileSoonWhileItRuns() async throws {
        try await TestPlaza.withServices(.sqlite) { services in
            guard case .sqlite(let path) = services.configuration.storage else { return }
            try await services.database.sql.raw("CREATE TABLE checkpoint_probe (id INTEGER)").run()
            try await services.database.sql.raw("INSERT INTO checkpoint_probe VALUES (42)").run()
            // A few kilobytes of log: far below the writer's own checkpoint, so only the checkpointer copies them.
            var found: Int?
            for _ in 0..<100 where found == nil {
                found = try? await Self.probe(fileOnly: path)
                if found == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(found == 42)
        }
    }

    /// A checkpoint that fails (a full disk; here a file that is not a database, which fails it for real) is tried
    /// again after a pause that doubles, not at every write: on a full disk that was 290 warnings a second.
    @Test func aFailingCheckpointBacksOffAndSaysWhenItWorksAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plaza-checkpoint-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plaza.sqlite")
        try Data(repeating: 0x5A, count: 8_192).write(to: file)
        let log = CapturedLog()
        let checkpointer = SQLiteCheckpointer(path: file.path, logger: log.logger(label: "plaza"))
        let running = Task { try await checkpointer.run() }
        // A write every 10 ms for about a second: tries at about 0, 0.1, 0.3 and 0.7 s, not 100. On a loaded machine
        // the second stretches, and the doublings with it: at most one try per doubling of the time it took.
        let start = ContinuousClock.now
        for _ in 0..<100 {
            checkpointer.written()
            try await Task.sleep(for: .milliseconds(10))
        }
        let took = ContinuousClock.now - start
        let failures = log.said("WAL checkpoint failed")
        let doublings = Int(log2(max(1, took / .milliseconds(100)))) + 2
        #expect(
            (2...max(7, doublings)).contains(failures.count),
            "\(failures.count) warnings for 100 writes in \(took)"
        )
        #expect(failures.last?.metadata?["retry_in"] != nil)
        guard case .failing = checkpointer.status else {
            Issue.record("status \(checkpointer.status) after failed checkpoints")
            checkpointer.finish()
            try await running.value
            return
        }
        // A database in its place (written over the same file, which the checkpointer holds open): the next try works.
        let good = folder.appendingPathComponent("good.sqlite")
        let connection = try await SQLiteConnection.open(storage: .file(path: good.path))
        _ = try await connection.query("CREATE TABLE checkpoint_probe (id INTEGER)")
        try await connection.close()
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: try Data(contentsOf: good))
        try handle.close()
        for _ in 0..<100 where checkpointer.status != .healthy {
            checkpointer.written()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(checkpointer.status == .healthy)
        #expect(log.said("WAL checkpoint works again").count == 1)
        // `finish()` ends the run at once, a back-off or not.
        checkpointer.finish()
        try await running.value
    }

    /// The probe's row as the database file alone has it (`immutable` reads the file and ignores the log).
    static func probe(fileOnly path: String) async throws -> Int? {
        let connection = try await SQLiteConnection.open(storage: .file(path: "file:\(path)?immutable=1"))
        do {
            let rows = try await connection.query("SELECT id FROM checkpoint_probe")
            try await connection.close()
            return rows.first?.column("id")?.integer
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
