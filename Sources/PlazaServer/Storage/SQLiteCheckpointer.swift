import Foundation
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
///
/// A failed checkpoint (a full disk) is not tried again at the next commit: that logged 290 warnings a second (issue
/// 42). It waits `firstBackOff`, doubling to `maximumBackOff` while it keeps failing, with the cues that arrive
/// meanwhile taken as one, and logs once per try.
final class SQLiteCheckpointer: Service, Sendable {
    /// Pages of log after which the writer checkpoints itself (8 MB).
    static let writerLimit = 2_000
    /// Bytes of log kept on disk when the log starts over (a bulk import may have grown it).
    static let sizeLimit = 32 << 20

    /// Whether the last checkpoint worked, for readiness.
    enum Status: Sendable, Equatable {
        case healthy
        /// Failing since the first failure of this run of them; `reason` is the last one's error.
        case failing(since: Date, reason: String)
    }

    private struct State {
        /// The running loop's cue, while there is one (`run` may run again after a cancelled run, as after migrations).
        var cue: AsyncStream<Void>.Continuation?
        /// The back-off wait in progress, cut short by `finish()`.
        var pause: Task<Void, Never>?
        var finished = false
        var status = Status.healthy
    }

    private let path: String
    private let logger: Logger
    private let firstBackOff: Duration
    private let maximumBackOff: Duration
    private let state = Mutex(State())

    init(
        path: String,
        logger: Logger,
        firstBackOff: Duration = .milliseconds(100),
        maximumBackOff: Duration = .seconds(30)
    ) {
        self.path = path
        self.logger = logger
        self.firstBackOff = firstBackOff
        self.maximumBackOff = maximumBackOff
    }

    /// Whether checkpoints work: `failing` from a failed one until one works again.
    var status: Status {
        state.withLock { $0.status }
    }

    /// Tells the checkpointer the writer has committed (or may have): it copies what is new as soon as it is free.
    func written() {
        _ = state.withLock { $0.cue?.yield() }
    }

    /// Copies after each write until cancelled, graceful shutdown or `finish()`.
    func run() async throws {
        let (writes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock {
            $0.cue = continuation
            $0.finished = false
        }
        defer { state.withLock { $0.cue = nil } }
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
            var backOff: Duration?
            for await _ in writes {
                do {
                    _ = try await connection.query("PRAGMA wal_checkpoint(PASSIVE)")
                    backOff = nil
                    self.succeeded()
                } catch {
                    let wait = backOff.map { min($0 * 2, self.maximumBackOff) } ?? self.firstBackOff
                    backOff = wait
                    self.failed(error, retryIn: wait)
                    // Cues that arrive meanwhile wait in the stream's one-element buffer: one try after the pause.
                    await self.pause(for: wait)
                }
            }
        }
        try await Task {
            try await connection.close()
            try await threadPool.shutdownGracefully()
        }.value
    }

    /// Ends `run` (the database is closing), without waiting out a back-off.
    func finish() {
        state.withLock {
            $0.finished = true
            $0.cue?.finish()
            $0.pause?.cancel()
        }
    }

    private func succeeded() {
        let was = state.withLock { state -> Status in
            defer { state.status = .healthy }
            return state.status
        }
        if case .failing(let since, _) = was {
            logger.notice(
                "WAL checkpoint works again",
                metadata: ["failing_for": "\(Int(Date().timeIntervalSince(since).rounded()))s"]
            )
        }
    }

    private func failed(_ error: any Error, retryIn wait: Duration) {
        let reason = "\(error)"
        state.withLock { state in
            if case .failing(let since, _) = state.status {
                state.status = .failing(since: since, reason: reason)
            } else {
                state.status = .failing(since: Date(), reason: reason)
            }
        }
        logger.warning("WAL checkpoint failed", metadata: ["error": "\(reason)", "retry_in": "\(wait)"])
    }

    /// Waits `wait`, or less when `finish()` or cancellation comes first.
    private func pause(for wait: Duration) async {
        let sleeper = Task { _ = try? await Task.sleep(for: wait) }
        let finished = state.withLock { state -> Bool in
            state.pause = sleeper
            return state.finished
        }
        if finished { sleeper.cancel() }
        await withTaskCancellationHandler {
            await sleeper.value
        } onCancel: {
            sleeper.cancel()
        }
        state.withLock { $0.pause = nil }
    }
}
