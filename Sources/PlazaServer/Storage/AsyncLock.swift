/// A fair (first come, first served) lock for async code.
///
/// SQLite gives one connection one transaction at a time; this lock makes tasks queue for it
/// instead of landing their statements inside another task's transaction.
actor AsyncLock {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    /// Tasks waiting for the lock now (a gauge for `/metrics`).
    var waiting: Int { waiters.count - head }

    func lock() async {
        guard isLocked else {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func unlock() {
        guard head < waiters.count else {
            isLocked = false
            waiters.removeAll(keepingCapacity: true)
            head = 0
            return
        }
        let next = waiters[head]
        head += 1
        next.resume()  // the lock passes straight to the next waiter
    }

    nonisolated func withLock<T>(_ body: () async throws -> T) async throws -> T {
        await lock()
        // Through `Result`, so that the unlock also runs for bodies typed `-> Never` (only throwing):
        // with a plain do/catch such a body left the lock held (seen with Swift 6.3).
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        await unlock()
        return try result.get()
    }
}
