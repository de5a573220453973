import Foundation
import Logging
import NIOPosix
import SQLKit
import SQLiteKit

extension PlazaDatabase {
    /// The reader connections, and the threads of their pool: a lone SELECT goes to the least busy.
    static let readers = 3

    /// Opens (creating when absent) the SQLite file at `path`, in WAL mode with foreign keys on. `timeout` bounds the
    /// wait for a connection and a transaction (`DatabaseTimeLimit`), and SQLite's own wait for another process's lock.
    public static func sqlite(
        path: String,
        timeout: Duration? = .seconds(5),
        logger: Logger
    ) async throws -> PlazaDatabase {
        let busy = timeout?.wholeMilliseconds ?? 60_000
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The readers' threads, their own too: on the process's shared pool they queued behind password hashes.
        let readerThreads = NIOThreadPool(numberOfThreads: readers)
        readerThreads.start()
        let writerThread = SQLiteWriterThread()
        let shutdown: @Sendable (SQLiteDirectConnection?, [SQLiteConnection]) async throws -> Void = {
            writer,
            readers in
            for connection in readers.reversed() { try await connection.close() }
            writer?.close()
            writerThread.stop()
            try await readerThreads.shutdownGracefully()
        }
        var writer: SQLiteDirectConnection?
        var connections: [SQLiteConnection] = []
        do {
            // The writer runs each statement on the thread of the task that holds its turn (`SQLiteDirectDatabase`):
            // its own (`SQLiteWriterThread`).
            let connection = try SQLiteDirectConnection(path: path, busyMilliseconds: busy)
            writer = connection
            let base = SQLiteDirectDatabase(
                connection: connection,
                logger: logger,
                eventLoop: MultiThreadedEventLoopGroup.singleton.any()
            )
            // WAL lets `plaza backup` and other readers run beside the server; NORMAL is durable in WAL mode
            // except for the last transactions on power loss; busy_timeout covers those outside readers.
            // The checkpointer copies the log back beside the writer; the writer's own automatic checkpoint is a backstop.
            for pragma in [
                "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
                "PRAGMA busy_timeout=\(busy)",
                "PRAGMA wal_autocheckpoint=\(SQLiteCheckpointer.writerLimit)",
                "PRAGMA journal_size_limit=\(SQLiteCheckpointer.sizeLimit)",
            ] {
                try await base.raw(SQLQueryString(pragma)).run()
            }
            // Two readers, each statement on a thread of their pool: two SELECTs run at once beside the writer.
            var readerConnections: [(database: any SQLDatabase, lock: AsyncLock)] = []
            for _ in 0..<readers {
                let reader = try await SQLiteConnection.open(
                    storage: .file(path: path),
                    threadPool: readerThreads,
                    logger: logger,
                    on: MultiThreadedEventLoopGroup.singleton.any()
                )
                connections.append(reader)
                try await reader.sql(queryLogLevel: .trace).raw("PRAGMA busy_timeout=\(unsafeRaw: String(busy))").run()
                readerConnections.append((SQLiteFastRowsDatabase(base: reader.sql(queryLogLevel: .trace)), AsyncLock()))
            }
            let checkpointer = SQLiteCheckpointer(path: path, logger: logger)
            let opened = connections
            return PlazaDatabase(
                engine: .sqlite,
                timeout: timeout,
                sql: SerializedSQLDatabase(
                    base: base,
                    lock: AsyncLock(),
                    readers: readerConnections,
                    written: checkpointer.written,
                    pipelineGuard: connection.commits,
                    timeout: timeout,
                    writerThread: writerThread
                ),
                service: checkpointer,
                close: {
                    checkpointer.finish()
                    try await shutdown(connection, opened)
                }
            )
        } catch {
            try? await shutdown(writer, connections)
            throw error
        }
    }
}
