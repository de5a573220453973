import HTTPTypes
import NIOCore
import NIOPosix
import PlazaCore
import Synchronization

/// Runs jobs in batches: jobs that arrive while `lanes` batches are running wait and go together in the next one, so
/// that under load one round trip (a statement, a transaction) serves many, and a lone job never waits for company.
///
/// A batch that has not answered within `deadline` fails its jobs with a retryable 503 and gives its lane to the next
/// batch: a PostgreSQL connection terminated mid-transaction once left a transfer batch waiting forever, and with it
/// every transfer after it (issue 36). The late batch may still commit; a retry with the same key then gets its answer.
final class Batcher<Job: Sendable, Output: Sendable>: Sendable {
    typealias Outcome = Result<Output, any Error>
    /// One outcome per job, in order.
    typealias Runner = @Sendable ([Job]) async -> [Outcome]

    private struct Waiting {
        let job: Job
        let continuation: CheckedContinuation<Output, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var running = 0
    }

    private let state = Mutex(State())
    /// The most jobs in one batch.
    let capacity: Int
    /// Batches running at once.
    let lanes: Int

    /// How long a batch may take before its jobs are answered with `BatchTimedOut`.
    let deadline: Duration

    init(capacity: Int = 64, lanes: Int, deadline: Duration = .seconds(15)) {
        self.capacity = capacity
        self.lanes = lanes
        self.deadline = deadline
    }

    /// Queues `job` and waits for its outcome; a caller finding a free lane starts a batch with `run`.
    func submit(_ job: Job, run: @escaping Runner) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.queue.append(Waiting(job: job, continuation: continuation))
                guard state.running < lanes else { return false }
                state.running += 1
                return true
            }
            // Unstructured: the batch serves every waiting request, not only the one that started it.
            if start { Task { await self.drain(run) } }
        }
    }

    private func drain(_ run: @escaping Runner) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let batch = Array(state.queue.prefix(capacity))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.running -= 1 }
                return batch
            }
            guard !batch.isEmpty else { return }
            // The batch runs in this task; a timer on an event loop answers its jobs if it is late and starts another
            // drain in its lane. (A task of its own per batch, and another to sleep out its deadline, cost more than
            // a one-point location upload's statements.)
            let answered = Answered()
            let late = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .init(deadline)) { [self] in
                guard answered.first() else { return }
                for waiting in batch { waiting.continuation.resume(throwing: PlazaError.databaseTimeout) }
                Task { await self.drain(run) }
            }
            let outcomes = await run(batch.map(\.job))
            late.cancel()
            // Too late: its jobs were answered and its lane went on without it.
            guard answered.first() else { return }
            for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(with: outcome) }
        }
    }

    /// Whether a batch's jobs were answered: by the batch, or by its deadline.
    private final class Answered: Sendable {
        private let done = Atomic<Bool>(false)

        /// True for the first caller only.
        func first() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
    }
}
