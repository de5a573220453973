import Foundation
import PlazaCore
import SQLKit

/// All SQL about `users`.
package struct AccountStore: Sendable {
    package init() {}

    package func insert(_ user: UserRecord, on db: any SQLDatabase) async throws {
        try await db.insert(into: "users").columns(UserRecord.columns + ["deleted_at"]).values(
            user.values + [SQLLiteral.null]
        ).run()
    }

    func user(id: UUID, on db: any SQLDatabase) async throws -> UserRecord? {
        try await select(on: db).where("id", .equal, id).first().map(UserRecord.init(row:))
    }

    func user(email: String, on db: any SQLDatabase) async throws -> UserRecord? {
        try await select(on: db).where("email", .equal, email).first().map(UserRecord.init(row:))
    }

    /// By e-mail address or username, whichever `login` is.
    package func user(login: String, on db: any SQLDatabase) async throws -> UserRecord? {
        let column = login.contains("@") ? "email" : "username"
        return try await select(on: db).where(SQLIdentifier(column), .equal, SQLBind(login)).first().map(
            UserRecord.init(row:)
        )
    }

    /// The accounts with these usernames (any that exist), in one statement.
    func users(usernames: [String], on db: any SQLDatabase) async throws -> [UserRecord] {
        guard !usernames.isEmpty else { return [] }
        return try await select(on: db).where("username", .in, SQLBind.group(usernames)).all().map(
            UserRecord.init(row:)
        )
    }

    /// The accounts with these ids (any that exist), in one statement.
    func users(ids: [UUID], on db: any SQLDatabase) async throws -> [UserRecord] {
        guard !ids.isEmpty else { return [] }
        return try await select(on: db).where("id", .in, SQLBind.group(ids)).all().map(UserRecord.init(row:))
    }

    func emailExists(_ email: String, on db: any SQLDatabase) async throws -> Bool {
        try await db.select().column("id").from("users").where("email", .equal, email).first() != nil
    }

    /// Whether an account has the username, or it is reserved (see `M0007_ReservedUsernames`).
    func usernameExists(_ username: String, on db: any SQLDatabase) async throws -> Bool {
        if try await db.select().column("id").from("users").where("username", .equal, username).first() != nil {
            return true
        }
        return try await db.select().column("username").from("reserved_usernames").where("username", .equal, username)
            .first() != nil
    }

    /// Keeps `username` from being taken (`reason`: `deleted` or `signup`).
    func reserve(_ username: String, reason: String, on db: any SQLDatabase, now: Date) async throws {
        try await db.insert(into: "reserved_usernames").columns("username", "reason", "reserved_at")
            .values(SQLBind(username), SQLBind(reason), SQLBind(now)).ignoringConflicts(with: ["username"]).run()
    }

    /// Writes the mutable fields of `user` back.
    func update(_ user: UserRecord, on db: any SQLDatabase, now: Date) async throws {
        try await db.update("users")
            .set("email", to: user.email)
            .set("display_name", to: user.displayName)
            .set("password_hash", to: user.passwordHash)
            .set("email_verified", to: user.emailVerified)
            .set("birth_date", to: user.birthDate)
            .set("gender", to: user.gender?.rawValue)
            .set("student", to: user.student)
            .set("time_zone", to: user.timeZone)
            .set("language", to: user.language)
            .set("updated_at", to: now)
            .where("id", .equal, user.id)
            .run()
    }

    /// Erases personal data but keeps the row, so that records of other domains (payments, reviews)
    /// still point at an account: it becomes `deleted-<id>` with no way to log in.
    func erase(_ id: UUID, on db: any SQLDatabase, now: Date) async throws {
        let tombstone = "deleted-\(id.uuidString.lowercased())"
        // The name stays taken: others' history shows "Deleted user", and must never come to mean a stranger.
        if let row = try await db.select().column("username").from("users").where("id", .equal, id).first() {
            try await reserve(try row.decode(column: "username", as: String.self), reason: "deleted", on: db, now: now)
        }
        try await db.update("users")
            .set("email", to: "\(tombstone)@deleted.invalid")
            .set("username", to: tombstone)
            .set("display_name", to: "Deleted user")
            .set("password_hash", to: "")
            .set("birth_date", to: SQLLiteral.null)
            .set("gender", to: SQLLiteral.null)
            .set("student", to: false)
            .set("time_zone", to: SQLLiteral.null)
            .set("language", to: SQLLiteral.null)
            .set("email_verified", to: false)
            .set("updated_at", to: now)
            .set("deleted_at", to: now)
            .where("id", .equal, id)
            .run()
        try await db.delete(from: "email_codes").where("user_id", .equal, id).run()
        try await db.delete(from: "app_passwords").where("user_id", .equal, id).run()
    }

    /// Live accounts only: erased ones are invisible to every lookup.
    private func select(on db: any SQLDatabase) -> SQLSelectBuilder {
        db.select().columns(UserRecord.columns.map { SQLIdentifier($0) }).from("users").where(
            "deleted_at",
            .is,
            SQLLiteral.null
        )
    }
}
