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
    private var nextWaiter: UInt64 = 0

    private struct Waiter {
        let id: UInt64
        /// Told true when the lock is its, false when its time ran out first.
        let continuation: CheckedContinuation<Bool, Never>
        let task: Int?
        /// Ends its wait after the time limit; cancelled when the lock comes first.
        var timer: Task<Void, Never>?
    }
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
        let id = nextWaiter
        nextWaiter += 1
        return await withCheckedContinuation { continuation in
            var waiter = Waiter(id: id, continuation: continuation, task: task)
            if let limit {
                waiter.timer = Task {
                    try? await Task.sleep(for: limit)
                    if !Task.isCancelled { self.expire(id) }
                }
            }
            waiters.append(waiter)
        }
    }

    /// A waiter's time ran out: it leaves the queue without the lock.
    private func expire(_ id: UInt64) {
        guard let index = waiters[head...].firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        waiter.continuation.resume(returning: false)
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
        next.timer?.cancel()
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
