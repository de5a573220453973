import Foundation
import PlazaServer
import PlazaTestSupport
import SQLiteKit
import Testing

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
