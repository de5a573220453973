import Foundation
import PlazaCore

/// What an admin app reads of the admin console (admins only: others get `403`).
extension PlazaClient {
    /// The copies of the database `plaza serve` keeps (`PLAZA_BACKUP_DIR`), newest first; backups off: `every` nil.
    public func adminBackups() async throws -> BackupList {
        try await send("GET", "v1/admin/backups", auth: .required)
    }
}
