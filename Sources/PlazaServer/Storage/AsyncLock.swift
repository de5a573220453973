/// A fair (first come, first served) lock for async code.
///
/// SQLite gives one connection one transaction at a time; this lock makes tasks queue for it
/// instead of landing their statements inside another task's transaction.
///
/// A task that asks for the lock while it holds it would wait for itself forever: on SQLite, a `database.sql` write
/// inside a `database.transaction` body (use the body's `db`). Debug builds stop there with that message.
actor AsyncLock {
    private var isLocked = false
    private var waiters: [(continuation: CheckedContinuation<Void, Never>, task: Int?)] = []
    private var head = 0
    /// The task holding the lock (debug builds' re-entrance check).
    private var holder: Int?

    /// Tasks waiting for the lock now (a gauge for `/metrics`).
    var waiting: Int { waiters.count - head }

    func lock(task: Int? = nil) async {
        guard isLocked else {
            isLocked = true
            holder = task
            return
        }
        assert(
            task == nil || task != holder,
            "This task already holds the lock it asks for and would wait for itself forever: inside `database.transaction { db in ... }` "
                + "use `db`, never `database.sql`."
        )
        await withCheckedContinuation { waiters.append(($0, task)) }
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
        next.continuation.resume()  // the lock passes straight to the next waiter
    }

    nonisolated func withLock<T>(_ body: () async throws -> T) async throws -> T {
        await lock(task: Self.currentTask)
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
