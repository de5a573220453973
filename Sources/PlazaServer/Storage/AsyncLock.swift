/// A fair (first come, first served) lock for async code.
///
/// SQLite gives one connection one transaction at a time; this lock makes tasks queue for it
/// instead of landing their statements inside another task's transaction.
///
/// A task that asks for the lock while it holds it would wait for itself forever: on SQLite, a `database.sql` write
/// inside a `database.transaction` body (use the body's `db`). Debug builds stop there with that message.
actor AsyncLock {
    private var isLocked = false
    private var waiters: [Waiter] = []
    private var head = 0

    private struct Waiter {
        /// Told true when the lock is its, false when its time ran out first.
        let continuation: CheckedContinuation<Bool, Never>
        let task: Int?
        /// When its wait ends without the lock (`sweeper` sees to it).
        let deadline: ContinuousClock.Instant?
    }
    /// One task for all waiters' time limits, asleep until the earliest: a timer task for each waiter cost more than
    /// the statements it guarded (`plaza bench market`: 859 searches/s with them, 1,053/s without).
    private var sweeper: Task<Void, Never>?
    /// The instant `sweeper` sleeps until, and its number (a sweeper replaced by one for an earlier deadline stops).
    private var sweepAt: ContinuousClock.Instant?
    private var sweeps: UInt64 = 0
    /// The task holding the lock (debug builds' re-entrance check).
    private var holder: Int?

    /// Tasks waiting for the lock now (a gauge for `/metrics`).
    var waiting: Int { waiters.count - head }

    /// Waits for the lock, at most `limit` when given: true once it is held, false when the time ran out first.
    func lock(task: Int? = nil, within limit: Duration? = nil) async -> Bool {
        guard isLocked else {
            isLocked = true
            holder = task
            return true
        }
        assert(
            task == nil || task != holder,
            "This task already holds the lock it asks for and would wait for itself forever: inside `database.transaction { db in ... }` "
                + "use `db`, never `database.sql`."
        )
        let deadline = limit.map { ContinuousClock.now + $0 }
        return await withCheckedContinuation { continuation in
            waiters.append(Waiter(continuation: continuation, task: task, deadline: deadline))
            guard let deadline, sweepAt.map({ deadline < $0 }) ?? true else { return }
            // None asleep, or one asleep until later: a new one sleeps until this deadline, the old one stops.
            sweeper?.cancel()
            sweeps += 1
            sweepAt = deadline
            let number = sweeps
            sweeper = Task { await self.sweep(number) }
        }
    }

    /// Until no waiter has a time limit: sends away those whose time ran out (without the lock), then sleeps until
    /// the earliest deadline left.
    private func sweep(_ number: UInt64) async {
        while number == sweeps {
            let now = ContinuousClock.now
            var earliest: ContinuousClock.Instant?
            var index = head
            while index < waiters.count {
                guard let deadline = waiters[index].deadline else {
                    index += 1
                    continue
                }
                if deadline <= now {
                    waiters.remove(at: index).continuation.resume(returning: false)
                } else {
                    earliest = min(earliest ?? deadline, deadline)
                    index += 1
                }
            }
            guard let earliest else {
                (sweeper, sweepAt) = (nil, nil)
                return
            }
            sweepAt = earliest
            try? await Task.sleep(until: earliest, tolerance: .milliseconds(10))
        }
    }

    func unlock() {
        guard head < waiters.count else {
            isLocked = false
            holder = nil
            waiters.removeAll(keepingCapacity: true)
            head = 0
            return
        }
        let next = waiters[head]
        head += 1
        holder = next.task
        next.continuation.resume(returning: true)  // the lock passes straight to the next waiter
    }

    /// `body` while holding the lock; `PlazaError.databaseTimeout` when `limit` passes before the lock is free.
    nonisolated func withLock<T>(within limit: Duration? = nil, _ body: () async throws -> T) async throws -> T {
        guard await lock(task: Self.currentTask, within: limit) else { throw PlazaError.databaseTimeout }
        // Through `Result`, so that the unlock also runs for bodies typed `-> Never` (only throwing):
        // with a plain do/catch such a body left the lock held (seen with Swift 6.3).
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        await unlock()
        return try result.get()
    }

    /// Names the running task, in debug builds only (release builds skip the check and its cost).
    private static var currentTask: Int? {
        #if DEBUG
        withUnsafeCurrentTask { $0?.hashValue }
        #else
        nil
        #endif
    }
}
