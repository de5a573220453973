import Foundation
import PlazaCore
import SQLKit

/// What an admin may change on an account, inside the admin's transaction (which also writes the audit entry).
extension AccountService {
    func adminUsers(matching query: String, limit: Int, after: String?) async throws -> [AdminUser] {
        try await accounts.adminUsers(matching: query, limit: limit, after: after, on: database.sql)
    }

    func adminUser(_ id: UUID, on db: any SQLDatabase) async throws -> AdminUser {
        guard let user = try await accounts.adminUser(id, on: db) else { throw PlazaError.notFound("user") }
        return user
    }

    /// Every session ends and log-in answers `account_suspended` with the reason, until reinstated.
    func suspend(_ id: UUID, reason: String, now: Date, on db: any SQLDatabase) async throws {
        try await accounts.setSuspension(id, at: now, reason: reason, on: db)
        try await sessions.revokeAll(userID: id, except: nil, now: now, on: db)
    }

    func reinstate(_ id: UUID, on db: any SQLDatabase) async throws {
        try await accounts.setSuspension(id, at: nil, reason: nil, on: db)
    }

    func changeRole(_ id: UUID, to role: Role, now: Date, on db: any SQLDatabase) async throws {
        try await accounts.setRole(id, role, now: now, on: db)
    }

    /// After an admin's change: no cached identity may outlive it.
    func forgetIdentities() {
        identities.clear()
    }
}
