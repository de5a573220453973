import Foundation
import ServiceLifecycle

/// Takes the SQLite copies of `PLAZA_BACKUP_DIR` on time beside the server: one at start (unless the newest is younger
/// than the interval), then one every interval, until graceful shutdown. A failed copy never stops it (see
/// `SQLiteBackups.backUp`).
struct BackupService: Service {
    let backups: SQLiteBackups
    /// The clock: tests replace it to run the schedule without waiting for it.
    var now: @Sendable () -> Date = { Date() }
    var sleep: @Sendable (_ seconds: TimeInterval) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            backups.prepare()
            var due = backups.firstDue(now: now())
            while !Task.isCancelled {
                let wait = due.timeIntervalSince(now())
                if wait > 0 { try await sleep(wait) }
                // Shut down while waiting: no copy started after the signal.
                try Task.checkCancellation()
                let started = now()
                await backups.backUp(now: started)
                due = started.addingTimeInterval(backups.every)
            }
        }
    }
}
