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
        let writerThread = SQLiteThread(name: "plaza-sqlite-writer")
        let readerThreads = (0..<readers).map { SQLiteThread(name: "plaza-sqlite-reader-\($0)") }
        let shutdown: @Sendable ([SQLiteDirectConnection]) -> Void = { connections in
            for connection in connections.reversed() { connection.close() }
            writerThread.stop()
            for thread in readerThreads { thread.stop() }
        }
        var connections: [SQLiteDirectConnection] = []
        do {
            // The writer runs each statement on the thread of the task that holds its turn (`SQLiteDirectDatabase`):
            // its own (`SQLiteThread`).
            let connection = try SQLiteDirectConnection(path: path, busyMilliseconds: busy)
            connections.append(connection)
            let base = SQLiteDirectDatabase(
                connection: connection,
                logger: logger,
                eventLoop: MultiThreadedEventLoopGroup.singleton.any()
            )
            // WAL lets `plaza backup` and other readers run beside the server; NORMAL is durable in WAL mode
            // except for the last transactions on power loss; the connection's busy timeout (set as it opens) covers
            // those outside readers. The checkpointer copies the log back beside the writer; the writer's own automatic
            // checkpoint is a backstop. A statement's own journal (kept while a statement that can fail halfway runs,
            // a multi-row INSERT or an upsert) stays in memory: in a temporary file it cost an open, writes and a close
            // per transaction on the writer's thread.
            for pragma in [
                "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON",
                "PRAGMA temp_store=MEMORY",
                "PRAGMA wal_autocheckpoint=\(SQLiteCheckpointer.writerLimit)",
                "PRAGMA journal_size_limit=\(SQLiteCheckpointer.sizeLimit)",
            ] {
                try await base.raw(SQLQueryString(pragma)).run()
            }
            // The readers, each on a thread of its own: SELECTs run at once beside the writer.
            var readerConnections: [SQLiteReader] = []
            for thread in readerThreads {
                let reader = try SQLiteDirectConnection(path: path, busyMilliseconds: busy)
                connections.append(reader)
                let database = SQLiteDirectDatabase(
                    connection: reader,
                    logger: logger,
                    eventLoop: MultiThreadedEventLoopGroup.singleton.any()
                )
                readerConnections.append(SQLiteReader(database: database, thread: thread))
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
                    shutdown(opened)
                }
            )
        } catch {
            shutdown(connections)
            throw error
        }
    }
}
