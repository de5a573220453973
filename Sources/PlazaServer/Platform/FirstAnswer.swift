import Synchronization

/// Waits for whichever answers first: `work`, or the rival that `rival` sets up (a deadline, a lost connection). The
/// work runs in a task of its own, so that when it loses (a hung database call that may never return) the caller goes
/// on without it; it is then cancelled, which such a call may ignore. A rival that answers while it is being set up
/// means the work never starts. `done` runs once, with the first answer.
enum FirstAnswer {
    static func of<T: Sendable>(
        _ work: @escaping @Sendable () async -> T,
        rival: (_ answer: @escaping @Sendable (T) -> Void) -> Void,
        done: @escaping @Sendable () -> Void = {}
    ) async -> T {
        let worker = Mutex<Task<Void, Never>?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                let answered = Atomic<Bool>(false)
                let answer: @Sendable (T) -> Void = { value in
                    guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
                    done()
                    continuation.resume(returning: value)
                    worker.withLock { $0?.cancel() }
                }
                rival(answer)
                guard !answered.load(ordering: .acquiring) else { return }
                worker.withLock { $0 = Task { answer(await work()) } }
            }
        } onCancel: {
            worker.withLock { $0?.cancel() }
        }
    }
}

extension FirstAnswer {
    /// `work`'s result, or nil once `limit` passed without one. The work runs on in its own task (cancelled: a hung
    /// database call may ignore that), so that a hang never holds the caller.
    static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let timer = Mutex<Task<Void, Never>?>(nil)
        return await of(
            { await work() as T? },
            rival: { answer in
                timer.withLock {
                    $0 = Task {
                        try? await Task.sleep(for: limit)
                        if !Task.isCancelled { answer(nil) }
                    }
                }
            },
            done: { timer.withLock { $0?.cancel() } }
        )
    }
}
