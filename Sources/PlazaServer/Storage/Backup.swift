import Foundation
import SQLKit

extension PlazaDatabase {
    enum BackupError: Error, CustomStringConvertible {
        case postgres
        case exists(String)
        var description: String {
            switch self {
            case .postgres:
                "plaza backup copies SQLite databases; for PostgreSQL run: pg_dump --format=custom --file=plaza.dump \"$PLAZA_DATABASE_URL\""
            case .exists(let path): "\(path) already exists; choose a new file name"
            }
        }
    }

    /// A consistent copy of the SQLite database at `path` (`VACUUM INTO`), safe while the server runs:
    /// in WAL mode the copy reads one snapshot and writers go on.
    public func backup(to path: String) async throws {
        guard engine == .sqlite else { throw BackupError.postgres }
        guard !FileManager.default.fileExists(atPath: path) else { throw BackupError.exists(path) }
        try await sql.raw("VACUUM INTO \(bind: path)").run()
    }
}
