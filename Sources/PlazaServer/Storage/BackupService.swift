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
    /// Whether the schema is migrated: services start beside the migrations, and a fresh install's first copy taken
    /// before them would hold nothing.
    var ready: @Sendable () async -> Bool = { true }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            backups.prepare()
            while !(await ready()) { try await sleep(1) }
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
