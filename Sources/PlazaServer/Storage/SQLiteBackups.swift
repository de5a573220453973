import Foundation
import Logging
import PlazaCore
import SQLiteKit
import Synchronization

/// The copies `plaza serve` keeps of its SQLite database in `PLAZA_BACKUP_DIR` (`BackupService` runs them on time).
///
/// Each copy is `VACUUM INTO` (as `plaza backup`) on a connection of its own: in WAL mode it reads one snapshot while
/// the server's writer goes on, so the copy is consistent however busy the server is. It is written under a
/// `.partial` name, synced, checked with `PRAGMA integrity_check` and only then renamed, so a crash never leaves half a
/// file under a final name. A copy that fails its check is kept as `….failed.sqlite` (for a person to look at) and
/// never counts against the good ones kept. An attempt that writes nothing (the folder gone, the disk full) is logged
/// once, shown in the admin console and tried again at the next interval; nothing here throws into the server.
final class SQLiteBackups: Sendable {
    /// The database file copied.
    let source: String
    let folder: BackupFolder
    let every: TimeInterval
    let logger: Logger
    private let failure = Mutex<BackupFailure?>(nil)

    init(source: String, configuration: BackupConfiguration, directory: String, logger: Logger) {
        self.source = source
        self.folder = BackupFolder(path: directory, keep: configuration.keep)
        self.every = configuration.every
        self.logger = logger
    }

    /// The last attempt, when it wrote nothing.
    var lastFailure: BackupFailure? { failure.withLock { $0 } }

    /// At start: makes the folder (its parent must exist or be makeable), and removes partial copies a stopped process
    /// left.
    func prepare() {
        try? FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        folder.removePartials()
    }

    /// When the first copy is due at start: now, unless the newest good copy is younger than the interval.
    func firstDue(now: Date) -> Date {
        guard let newest = folder.newestGood() else { return now }
        // A copy stamped in the future (the clock was set back) waits no longer than one interval.
        return min(max(newest.createdAt.addingTimeInterval(every), now), now.addingTimeInterval(every))
    }

    /// Takes one copy now, checks it, renames it and prunes the folder. Returns the copy, or nil when none was written
    /// (then the reason is logged and kept in `lastFailure`).
    @discardableResult
    func backUp(now: Date = Date()) async -> BackupFolder.Entry? {
        do {
            // Unstructured: a shutdown does not cut a copy off half-way (a process killed meanwhile leaves a partial
            // file only, removed at the next start).
            let entry = try await Task { [self] in try await write(at: now) }.value
            let recovered = failure.withLock { last in
                defer { last = nil }
                return last != nil
            }
            if entry.check == .ok {
                logger.info("backup written", metadata: ["file": "\(entry.name)", "bytes": "\(entry.bytes)"])
                if recovered { logger.notice("backups work again") }
            } else {
                logger.error(
                    "backup failed its integrity check: the database may be damaged; kept for inspection",
                    metadata: ["file": "\(entry.name)"]
                )
            }
            do {
                let removed = try folder.prune()
                if !removed.isEmpty { logger.info("old backups removed", metadata: ["files": "\(removed)"]) }
            } catch {
                logger.warning("old backups could not be removed", metadata: ["error": "\(error)"])
            }
            return entry
        } catch {
            let reason = Self.reason(error)
            failure.withLock { $0 = BackupFailure(at: now, reason: reason) }
            logger.error(
                "backup failed; trying again at the next interval",
                metadata: ["folder": "\(folder.path)", "error": "\(reason)"]
            )
            return nil
        }
    }

    /// What an admin reads: the backup's error in a line.
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error).replacingOccurrences(of: "\n", with: " ")
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }

    enum WriteError: Error, CustomStringConvertible {
        case noFolder(String)
        var description: String {
            switch self {
            case .noFolder(let path): "the backup folder \(path) does not exist or is not a folder"
            }
        }
    }

    private func write(at now: Date) async throws -> BackupFolder.Entry {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw WriteError.noFolder(folder.path)
        }
        // Two attempts within one second (only tests run that often) share the first's copy.
        let names = [BackupFolder.name(now), BackupFolder.name(now, check: .failed)]
        if let existing = folder.entries().first(where: { names.contains($0.name) }) { return existing }
        let partial = folder.url(BackupFolder.partialName(now))
        try? FileManager.default.removeItem(at: partial)
        do {
            try await copy(to: partial.path)
            // Personal data: readable by the server's user only.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial.path)
            // VACUUM INTO does not sync its output; renamed unsynced, a power cut could leave a final name over
            // missing pages.
            let handle = try FileHandle(forUpdating: partial)
            try handle.synchronize()
            try handle.close()
            let check: BackupCheck = try await Self.integrityCheck(partial.path, logger: logger) ? .ok : .failed
            let final = folder.url(BackupFolder.name(now, check: check))
            try FileManager.default.moveItem(at: partial, to: final)
            guard let entry = folder.entries().first(where: { $0.name == final.lastPathComponent }) else {
                throw WriteError.noFolder(folder.path)
            }
            return entry
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// `VACUUM INTO` on a connection of its own.
    private func copy(to path: String) async throws {
        let connection = try await SQLiteConnection.open(storage: .file(path: source), logger: logger)
        do {
            _ = try await connection.query("PRAGMA busy_timeout=5000")
            _ = try await connection.query("VACUUM INTO ?", [.text(path)])
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// Whether `PRAGMA integrity_check` on the file at `path` answers `ok` (a file SQLite cannot read is not).
    static func integrityCheck(_ path: String, logger: Logger) async throws -> Bool {
        guard let connection = try? await SQLiteConnection.open(storage: .file(path: path), logger: logger) else {
            return false
        }
        let rows = try? await connection.query("PRAGMA integrity_check")
        try await connection.close()
        return rows?.map { $0.column("integrity_check")?.string } == ["ok"]
    }
}
