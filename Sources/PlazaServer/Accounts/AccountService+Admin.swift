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

    /// "Carla Friend (@carla)" for each of `ids` that still has an account, in one query.
    func people(_ ids: [UUID]) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        var names: [UUID: String] = [:]
        for user in try await accounts.users(ids: Array(Set(ids)), on: database.sql) {
            names[user.id] = ReviewSubmission.person(displayName: user.displayName, username: user.username)
        }
        return names
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

    /// The accounts' part of the bus's transactions: an admin's decision on a merchant is their standing; a refused
    /// merchant who changes their business is waiting again.
    func reviewRecorder() -> EventBus.Recorder {
        let (accounts, identities) = (accounts, identities)
        return EventBus.Recorder(
            record: { messages, db in
                var wrote = false
                for message in messages {
                    switch message {
                    case .reviewed(let decision) where decision.kind == .merchant:
                        let state: ApprovalState = decision.approved ? .approved : .rejected
                        try await accounts.setApproval(
                            decision.subjectId,
                            state,
                            reason: decision.reason,
                            now: Date(),
                            on: db
                        )
                        wrote = true
                    case .review(let submission) where submission.kind == .merchant:
                        wrote = try await accounts.reopenApproval(submission.subjectId, now: Date(), on: db) || wrote
                    default: break
                    }
                }
                return wrote
            },
            committed: { identities.clear() }
        )
    }

    /// After an admin's change: no cached identity may outlive it.
    func forgetIdentities() {
        identities.clear()
    }
}
