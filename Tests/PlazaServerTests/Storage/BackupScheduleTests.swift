import Foundation
import PlazaCore
import PlazaTestSupport
import Synchronization
import Testing

@testable import PlazaServer

/// When copies are taken: at start unless a young one exists, then every interval, on a clock the tests turn.
@Suite struct BackupScheduleTests {
    /// A clock that moves only when the service sleeps, and stops the service after `sleeps` naps.
    final class TestClock: Sendable {
        let time: Mutex<Date>
        let naps = Mutex<[TimeInterval]>([])
        let sleeps: Int

        init(_ start: Date, sleeps: Int) {
            time = Mutex(start)
            self.sleeps = sleeps
        }

        func service(_ backups: SQLiteBackups) -> BackupService {
            BackupService(backups: backups, now: { self.time.withLock { $0 } }) { seconds in
                let count = self.naps.withLock {
                    $0.append(seconds)
                    return $0.count
                }
                if count > self.sleeps { throw CancellationError() }
                self.time.withLock { $0 = $0.addingTimeInterval(seconds) }
            }
        }
    }

    @Test func aStartWithAYoungCopyWritesNoOtherAndWaitsForItsTurn() async throws {
        let folder = try BackupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestPlaza.withServices(.sqlite, configure: BackupTests.configure(folder)) { services in
            let backups = try #require(services.backups)
            let now = Date(timeIntervalSince1970: 1_795_917_412)
            _ = await backups.backUp(now: now.addingTimeInterval(-3_600))
            let clock = TestClock(now, sleeps: 0)
            try await clock.service(backups).run()
            #expect(backups.folder.entries().count == 1, "no second copy at start")
            #expect(clock.naps.withLock { $0 } == [5 * 3_600], "the next one is due six hours after the last")
        }
    }

    @Test func aStartAfterAnOldCopyWritesOneAtOnce() async throws {
        let folder = try BackupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestPlaza.withServices(.sqlite, configure: BackupTests.configure(folder)) { services in
            let backups = try #require(services.backups)
            let now = Date(timeIntervalSince1970: 1_795_917_412)
            _ = await backups.backUp(now: now.addingTimeInterval(-7 * 3_600))
            // A partial copy a killed process left: removed at start, never listed.
            let partial = folder.appendingPathComponent(BackupFolder.partialName(now.addingTimeInterval(-60)))
            FileManager.default.createFile(atPath: partial.path, contents: Data("half".utf8))
            let clock = TestClock(now, sleeps: 0)
            try await clock.service(backups).run()
            #expect(backups.folder.entries().map(\.createdAt) == [now, now.addingTimeInterval(-7 * 3_600)])
            #expect(!FileManager.default.fileExists(atPath: partial.path))
            #expect(clock.naps.withLock { $0 } == [6 * 3_600])
        }
    }

    @Test func everyIntervalACopyAndOnlyTheNewestKept() async throws {
        let folder = try BackupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestPlaza.withServices(.sqlite, configure: BackupTests.configure(folder, every: 60, keep: 3)) {
            services in
            let backups = try #require(services.backups)
            let start = Date(timeIntervalSince1970: 1_795_917_420)
            let clock = TestClock(start, sleeps: 4)
            try await clock.service(backups).run()
            #expect(clock.naps.withLock { $0 } == [60, 60, 60, 60, 60])
            // Five copies taken (at start and after each of four minutes), three kept.
            #expect(backups.folder.entries().map(\.createdAt) == [240, 180, 120].map { start.addingTimeInterval($0) })
        }
    }
}
