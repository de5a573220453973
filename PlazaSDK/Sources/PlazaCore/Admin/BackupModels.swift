import Foundation

/// `GET /v1/admin/backups`: the copies of the database `plaza serve` keeps by itself (SQLite with `PLAZA_BACKUP_DIR`).
/// Backups off (or PostgreSQL, which has tools of its own): `every` and `keep` are null and `items` is empty.
public struct BackupList: Codable, Sendable, Hashable {
    /// Seconds between backups (`PLAZA_BACKUP_EVERY`); null: backups are off.
    public var every: Int?
    /// How many good copies are kept (`PLAZA_BACKUP_KEEP`); null: backups are off.
    public var keep: Int?
    /// The copies in the folder, newest first.
    public var items: [BackupItem]
    /// The last attempt, when it wrote nothing (the folder gone, the disk full); null once one succeeds again.
    public var lastFailure: BackupFailure?

    public init(every: Int?, keep: Int?, items: [BackupItem], lastFailure: BackupFailure? = nil) {
        self.every = every
        self.keep = keep
        self.items = items
        self.lastFailure = lastFailure
    }

    /// Off is said with nulls (`"every": null`), not by leaving the keys out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(every, forKey: .every)
        try container.encode(keep, forKey: .keep)
        try container.encode(items, forKey: .items)
        try container.encode(lastFailure, forKey: .lastFailure)
    }
}

/// One copy: `plaza-<yyyyMMddTHHmmssZ>.sqlite`, or `….failed.sqlite` when its integrity check failed.
public struct BackupItem: Codable, Sendable, Hashable {
    /// The file's name in the backup folder.
    public var name: String
    /// When the copy was taken (the time in its name, UTC).
    public var createdAt: Date
    public var bytes: Int64
    /// `PRAGMA integrity_check` on the written copy.
    public var check: BackupCheck

    public init(name: String, createdAt: Date, bytes: Int64, check: BackupCheck) {
        self.name = name
        self.createdAt = createdAt
        self.bytes = bytes
        self.check = check
    }
}

/// What the integrity check of a copy said.
public enum BackupCheck: String, Codable, Sendable, Hashable, CaseIterable {
    case ok
    case failed
}

/// An attempt that wrote no copy, and why.
public struct BackupFailure: Codable, Sendable, Hashable {
    public var at: Date
    public var reason: String

    public init(at: Date, reason: String) {
        self.at = at
        self.reason = reason
    }
}
