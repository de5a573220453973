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
        for pragma in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=5000"] {
            try await base.raw(SQLQueryString(pragma)).run()
        }
        let readerConnection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        let reader = readerConnection.sql(queryLogLevel: .trace)
        try await reader.raw("PRAGMA busy_timeout=5000").run()
        return PlazaDatabase(
            engine: .sqlite,
            sql: SerializedSQLDatabase(base: base, lock: AsyncLock(), reader: (reader, AsyncLock())),
            service: nil,
            close: {
                try await readerConnection.close()
                try await connection.close()
            }
        )
    }
}
