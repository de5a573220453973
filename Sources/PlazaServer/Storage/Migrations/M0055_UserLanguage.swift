import SQLKit

/// The language a user chose for pages, mails and pushes (issue 41): a tag this Plaza offers (`de`, `en-XA`); without
/// one, the browser's best offered, else the operator's `PLAZA_DEFAULT_LANGUAGE`.
struct M0055_UserLanguage: Migration {
    let name = "UserLanguage"

    func apply(on db: any SQLDatabase, engine: DatabaseEngine) async throws {
        try await db.alter(table: "users").column("language", type: .text).run()
    }
}
