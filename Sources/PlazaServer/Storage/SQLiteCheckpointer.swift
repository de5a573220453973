import Logging
import NIOPosix
import SQLiteKit
import ServiceLifecycle
import Synchronization

/// Copies SQLite's write-ahead log back into the database file beside the writer, on a connection and a thread of its
/// own, while the server runs.
///
/// Left to itself, SQLite does this inside the commit that takes the log past 1,000 pages, and that commit waits for
/// the file's sync (30–50 ms here for a thousand scattered pages) while every transfer queued behind it waits too. A
/// passive checkpoint from another connection copies and syncs while the writer goes on; run after every write, each
/// one copies a batch or two. The writer keeps its own automatic checkpoint at `writerLimit` pages: it starts the log
/// over (which only a checkpoint right after its own commit lets it do under steady load) and is the backstop when
/// this one is not running, as in commands without a server. By then there is little left to copy, so it is short.
final class SQLiteCheckpointer: Service, Sendable {
    /// Pages of log after which the writer checkpoints itself (8 MB).
    static let writerLimit = 2_000
    /// Bytes of log kept on disk when the log starts over (a bulk import may have grown it).
    static let sizeLimit = 32 << 20

    private let path: String
    private let logger: Logger
    /// The running loop's cue, while there is one (`run` may run again after a cancelled run, as after migrations).
    private let cue = Mutex<AsyncStream<Void>.Continuation?>(nil)

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    /// Tells the checkpointer the writer has committed (or may have): it copies what is new as soon as it is free.
    func written() {
        _ = cue.withLock { $0?.yield() }
    }

    /// Copies after each write until cancelled, graceful shutdown or `finish()`.
    func run() async throws {
        let (writes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        cue.withLock { $0 = continuation }
        defer { cue.withLock { $0 = nil } }
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        // Opened and closed outside this task's cancellation, which would drop a connection half made.
        let (path, logger) = (path, logger)
        let connection = try await Task {
            do {
                let connection = try await SQLiteConnection.open(
                    storage: .file(path: path),
                    threadPool: threadPool,
                    logger: logger,
                    on: MultiThreadedEventLoopGroup.singleton.any()
                )
                _ = try await connection.query("PRAGMA busy_timeout=5000")
                return connection
            } catch {
                try? await threadPool.shutdownGracefully()
                throw error
            }
        }.value
        await cancelWhenGracefulShutdown {
            for await _ in writes {
                do {
                    _ = try await connection.query("PRAGMA wal_checkpoint(PASSIVE)")
                } catch {
                    logger.warning("WAL checkpoint failed", metadata: ["error": "\(error)"])
                }
            }
        }
        try await Task {
            try await connection.close()
            try await threadPool.shutdownGracefully()
        }.value
    }

    /// Ends `run` (the database is closing).
    func finish() {
        cue.withLock { $0?.finish() }
    }
}
