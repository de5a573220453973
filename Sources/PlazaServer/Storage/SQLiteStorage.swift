import Foundation
import Logging
import SQLKit
import SQLiteKit

extension PlazaDatabase {
    /// Opens (creating when absent) the SQLite file at `path`, in WAL mode with foreign keys on.
    public static func sqlite(path: String, logger: Logger) async throws -> PlazaDatabase {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        let base = connection.sql(queryLogLevel: .trace)
        // WAL lets `plaza backup` and other readers run beside the server; NORMAL is durable in WAL mode
        // except for the last transactions on power loss; busy_timeout covers those outside readers.
        // The checkpointer copies the log back beside the writer; the writer's own automatic checkpoint is a backstop.
        for pragma in [
            "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=5000",
            "PRAGMA wal_autocheckpoint=\(SQLiteCheckpointer.writerLimit)", "PRAGMA journal_size_limit=\(SQLiteCheckpointer.sizeLimit)",
        ] {
            try await base.raw(SQLQueryString(pragma)).run()
        }
        let checkpointer = SQLiteCheckpointer(path: path, logger: logger)
        // Two readers: SQLiteNIO runs statements on a thread pool as wide as the machine (two cores here).
        var readerConnections: [SQLiteConnection] = []
        for _ in 0..<2 {
            let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            try await reader.sql(queryLogLevel: .trace).raw("PRAGMA busy_timeout=5000").run()
            readerConnections.append(reader)
        }
        let connections = readerConnections
        return PlazaDatabase(
            engine: .sqlite,
            sql: SerializedSQLDatabase(
                base: base, lock: AsyncLock(), readers: connections.map { ($0.sql(queryLogLevel: .trace), AsyncLock()) },
                written: checkpointer.written),
            service: checkpointer,
            close: {
                checkpointer.finish()
                for reader in connections { try await reader.close() }
                try await connection.close()
            }
        )
    }
}
