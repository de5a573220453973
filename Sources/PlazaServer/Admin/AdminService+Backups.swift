import Foundation
import PlazaCore

/// The backups panel: the SQLite copies `plaza serve` keeps by itself (`PLAZA_BACKUP_DIR`).
extension AdminService {
    /// Backups off (or PostgreSQL): `every` and `keep` null, no items. Reads the folder, so a copy removed by hand
    /// disappears from the list.
    func backupList() -> BackupList {
        guard let backups else { return BackupList(every: nil, keep: nil, items: []) }
        return BackupList(
            every: Int(backups.every.rounded()),
            keep: backups.folder.keep,
            items: backups.folder.entries().map {
                BackupItem(name: $0.name, createdAt: $0.createdAt, bytes: $0.bytes, check: $0.check)
            },
            lastFailure: backups.lastFailure
        )
    }
}
