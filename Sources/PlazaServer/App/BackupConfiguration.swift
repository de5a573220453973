import Foundation

/// Backups without a person (`PLAZA_BACKUP_DIR`, `PLAZA_BACKUP_EVERY`, `PLAZA_BACKUP_KEEP`): on SQLite, `plaza serve`
/// keeps checked copies of the database in a folder (see `BackupService`). PostgreSQL has tools of its own.
public struct BackupConfiguration: Sendable, Equatable {
    /// The folder the copies go to; none: no backups.
    public var directory: String?
    /// Seconds between copies (at least a minute from the environment; tests set less directly).
    public var every: TimeInterval = 6 * 3_600
    /// How many good copies stay; older ones are removed.
    public var keep = 28

    public init() {}

    /// Whether `plaza serve` keeps copies.
    public var enabled: Bool { directory != nil }

    mutating func read(
        _ value: (String) -> String?,
        storage: PlazaConfiguration.Storage,
        fail: (String, String) -> Void
    ) {
        if let text = value("PLAZA_BACKUP_EVERY") {
            if let seconds = PlazaConfiguration.parseDuration(text), seconds >= 60, seconds <= 366 * 86_400 {
                every = seconds
            } else {
                fail(
                    "PLAZA_BACKUP_EVERY",
                    "must be a duration of at least a minute such as 6h, 90m or 1d, not '\(text)'"
                )
            }
        }
        if let text = value("PLAZA_BACKUP_KEEP") {
            if let count = Int(text), (1...100_000).contains(count) {
                keep = count
            } else {
                fail(
                    "PLAZA_BACKUP_KEEP",
                    "must be how many backups to keep, a whole number of at least 1, not '\(text)'"
                )
            }
        }
        guard let folder = value("PLAZA_BACKUP_DIR") else { return }
        if case .postgres = storage {
            fail(
                "PLAZA_BACKUP_DIR",
                "is for SQLite only; back PostgreSQL up with pg_dump, WAL archiving or your provider's snapshots "
                    + "(see the README's Backups and restore)"
            )
            return
        }
        directory = folder
    }
}
