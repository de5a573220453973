import Foundation

/// An SQLite connection's thread: a task executor on a thread of its own.
///
/// A session on the writer (and a lone statement on the writer or a reader) runs with its connection's thread as its
/// executor preference (`SerializedSQLDatabase`): its code, and with it every statement it sends to
/// `SQLiteDirectDatabase`, runs here, one hand-over in and one out instead of SQLiteNIO's two or three per statement;
/// and a long statement (a migration, a large batch, a slow search) holds this thread, never one of the cooperative
/// pool's few. While one session waits for something else, the next in line for the connection is still suspended,
/// so the thread idles.
final class SQLiteThread: TaskExecutor, @unchecked Sendable {
    // Unchecked: `jobs` and `state` are read and written only under `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var state = State.running

    private enum State { case running, stopping, stopped }

    init(name: String) {
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        guard state != .stopped else {
            // The database closed with a task still to resume: it resumes on the shared pool and fails there.
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs queued so far have run.
    func stop() {
        condition.lock()
        if state == .running { state = .stopping }
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty, state == .running { condition.wait() }
            if jobs.isEmpty {
                state = .stopped
                condition.unlock()
                return
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
