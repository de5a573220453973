import HTTPTypes
import NIOCore
import NIOPosix
import PlazaCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Where work on untrusted bytes runs (decoding and checking pictures, thumbnails, card art, print files): on threads
/// of its own, as many as the cores, never on an event loop, so a costly picture slows uploads and never the server.
///
/// Admission is bounded: `threads` run and up to `queue` wait; past that the request is answered 503 at once, with
/// `Retry-After`, and nothing is stored. A request waits at most `budget` for its answer (422 `image_too_large` after);
/// the work keeps its place until it really ends, so the pool never holds more than it admitted.
package final class DecodePool: Sendable {
    /// One per process: every server and test in it shares the cores. Up to `sharedQueue` wait.
    package static let shared = DecodePool(threads: System.coreCount, queue: sharedQueue.load(ordering: .acquiring))
    /// How many wait in `shared`, read when it is first used: four per core (the test suite's many apps, sharing one
    /// process, set more).
    package static let sharedQueue = Atomic<Int>(4 * System.coreCount)

    private let pool: NIOThreadPool
    private let capacity: Int
    private let admitted = Atomic<Int>(0)
    let budget: Duration

    package init(threads: Int, queue: Int, budget: Duration = .seconds(20)) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
        capacity = max(1, threads) + max(0, queue)
        self.budget = budget
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Runs `work` on the pool: 503 when the pool is full, 422 `image_too_large` when it outlasts the budget.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard admitted.add(1, ordering: .acquiringAndReleasing).newValue <= capacity else {
            admitted.subtract(1, ordering: .acquiringAndReleasing)
            throw PlazaError.decodeQueueFull
        }
        let budget = budget
        // The pool's threads do not inherit task-locals: the reader's language goes along for the problems said there.
        let words = PageLanguage.words
        let timer = Mutex<Task<Void, Never>?>(nil)
        let answer = await FirstAnswer.of(
            { [self] () async -> Result<T, any Error> in
                // Released when the thread is done with it (or it left the queue unstarted), never before.
                defer { admitted.subtract(1, ordering: .acquiringAndReleasing) }
                do {
                    return .success(
                        try await pool.runIfActive {
                            Self.yieldToEventLoops()
                            return try PageLanguage.$words.withValue(words) { try work() }
                        }
                    )
                } catch { return .failure(error) }
            },
            rival: { answer in
                timer.withLock {
                    $0 = Task {
                        try? await Task.sleep(for: budget)
                        if !Task.isCancelled { answer(.failure(PlazaError.decodeOverran)) }
                    }
                }
            },
            done: { timer.withLock { $0?.cancel() } }
        )
        return try answer.get()
    }

    /// Decoding threads run at a lower priority (nice 10) than the event loops: with every core decoding, a request
    /// that needs a few microseconds still gets them at once. Linux keeps a nice value per thread (`who` 0 is the calling
    /// thread, not the process).
    static func yieldToEventLoops() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }

    /// How many are running or waiting now (for tests).
    var load: Int { admitted.load(ordering: .acquiring) }
}

extension PlazaError {
    /// Every decoding thread is busy and the queue is full: nothing was stored; the same request later will do.
    static var decodeQueueFull: PlazaError {
        var error = PlazaError(
            .serviceUnavailable,
            .unavailable,
            "Too many pictures are being read right now.",
            detail: "Nothing was stored; send it again in a moment."
        )
        error.headers[.retryAfter] = "2"
        return error
    }

    /// A picture that fits the pixel budget yet takes longer to read than any picture should.
    static var decodeOverran: PlazaError {
        PlazaError(
            .unprocessableContent,
            .imageTooLarge,
            "The picture takes too long to read.",
            detail: "Upload a smaller or simpler picture.",
            errors: [FieldError(field: "body", message: "The picture takes too long to read.")]
        )
    }
}
