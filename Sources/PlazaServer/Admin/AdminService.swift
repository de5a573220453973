import Foundation
import PlazaCore
import SQLKit

/// The admin console's rules: every action checks its input, changes what it changes and writes its audit entry in
/// one transaction, and tells the person concerned through the event bus (an account alert: push and e-mail).
package struct AdminService: Sendable {
    let database: PlazaDatabase
    let events: EventBus
    let accounts: AccountService
    /// Balances only, read through the wallet's ledger: a suspension page says what the person holds.
    let wallet: WalletService
    /// Campaigns read back after a stop (the stop itself reaches offers through the bus).
    let offers: OffersService
    /// The SQLite copies `plaza serve` keeps (`PLAZA_BACKUP_DIR`); nil when backups are off.
    var backups: SQLiteBackups? = nil
    let audit = AuditStore()
    let reviews = ReviewStore()

    func users(matching query: String, limit: Int, after: String?) async throws -> Page<AdminUser> {
        let users = try await accounts.adminUsers(
            matching: query.trimmingCharacters(in: .whitespaces),
            limit: limit + 1,
            after: after
        )
        return Page(
            items: Array(users.prefix(limit)),
            nextCursor: users.count > limit ? users.prefix(limit).last?.username : nil
        )
    }

    func user(_ id: UUID) async throws -> AdminUser {
        try await accounts.adminUser(id, on: database.sql)
    }

    /// Suspends `id` with a reason the person reads; an admin cannot suspend themselves.
    func suspend(_ admin: Identity, _ id: UUID, reason: String, now: Date = Date()) async throws -> AdminUser {
        if let problem = AdminRules.reasonProblem(reason) { throw PlazaError.validation(field: "reason", problem) }
        guard id != admin.user.id else {
            throw PlazaError.conflict(field: nil, phrase("You cannot suspend your own account."))
        }
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        let (accounts, audit) = (accounts, audit)
        let user = try await events.transaction { db in
            _ = try await accounts.adminUser(id, on: db)
            try await accounts.suspend(id, reason: reason, now: now, on: db)
            try await audit.record(
                Self.entry(admin, "user.suspend", id, reason: reason, at: now),
                adminID: admin.user.id,
                on: db
            )
            let alert = NotificationContent(
                kind: .account,
                title: "Your Plaza account was suspended",
                body: "The reason given: \(reason)",
                link: "/login"
            )
            let wording = Wording(key: "alert.account.suspended", values: ["reason": reason])
            return (
                try await accounts.adminUser(id, on: db),
                [FeedMessage.alert(user: id, content: alert, wording: wording)]
            )
        }
        accounts.forgetIdentities()
        return user
    }

    func reinstate(_ admin: Identity, _ id: UUID, now: Date = Date()) async throws -> AdminUser {
        let (accounts, audit) = (accounts, audit)
        let user = try await events.transaction { db in
            _ = try await accounts.adminUser(id, on: db)
            try await accounts.reinstate(id, on: db)
            try await audit.record(
                Self.entry(admin, "user.reinstate", id, reason: nil, at: now),
                adminID: admin.user.id,
                on: db
            )
            let alert = NotificationContent(
                kind: .account,
                title: "Your Plaza account works again",
                body: "An admin lifted the suspension: you can log in.",
                link: "/login"
            )
            return (
                try await accounts.adminUser(id, on: db),
                [FeedMessage.alert(user: id, content: alert, wording: Wording(key: "alert.account.reinstated"))]
            )
        }
        accounts.forgetIdentities()
        return user
    }

    /// Another account's role (an admin's own would lock the console out of its last admin).
    func changeRole(_ admin: Identity, _ id: UUID, to role: Role, now: Date = Date()) async throws -> AdminUser {
        guard id != admin.user.id else {
            throw PlazaError.conflict(field: "role", phrase("You cannot change your own role."))
        }
        let (accounts, audit) = (accounts, audit)
        let user = try await database.transaction { db in
            let before = try await accounts.adminUser(id, on: db)
            try await accounts.changeRole(id, to: role, now: now, on: db)
            try await audit.record(
                Self.entry(
                    admin,
                    "user.role",
                    id,
                    reason: nil,
                    detail: "\(before.role.rawValue) → \(role.rawValue)",
                    at: now
                ),
                adminID: admin.user.id,
                on: db
            )
            return try await accounts.adminUser(id, on: db)
        }
        accounts.forgetIdentities()
        return user
    }

    /// What `id` holds, one amount per currency (the default currency when none): the wallet's ledger answers.
    func balances(of id: UUID) async throws -> [Money] {
        let held = try await wallet.ledger.balances(owner: id, on: database.sql)
        guard !held.isEmpty else { return [Money(amount: 0, currency: wallet.configuration.currencies[0])] }
        return held.sorted { $0.key < $1.key }.map { Money(amount: $0.value, currency: $0.key) }
    }

    /// The people the entries are about, named "Carla Friend (@carla)", keyed by the entries' object id.
    func auditSubjects(_ entries: [AuditEntry]) async throws -> [String: String] {
        let ids = entries.filter { Self.personKinds.contains($0.objectKind) }.compactMap {
            UUID(uuidString: $0.objectId)
        }
        return Dictionary(
            uniqueKeysWithValues: try await accounts.people(ids).map { ($0.key.uuidString.lowercased(), $0.value) }
        )
    }

    /// Audit entries whose object is an account.
    static let personKinds: Set<String> = ["user", "merchant"]

    func auditLog(limit: Int, cursor: String?) async throws -> Page<AuditEntry> {
        let entries = try await audit.entries(
            limit: limit + 1,
            after: try cursor.map { try RowCursor.decode($0).id },
            on: database.sql
        )
        let page = Array(entries.prefix(limit))
        return Page(
            items: page,
            nextCursor: entries.count > limit ? page.last.map { RowCursor(id: $0.id).encoded } : nil
        )
    }

    /// The whole log as CSV (reasons that could start a formula get a leading apostrophe).
    func auditCSV() async throws -> String {
        let entries = try await audit.entries(limit: 100_000, after: nil, on: database.sql)
        let rows = entries.map { entry in
            [
                RFC3339.format(entry.at), entry.admin, entry.action, entry.objectKind, entry.objectId,
                CSV.guarded(entry.reason ?? ""),
                CSV.guarded(entry.detail ?? ""),
            ]
        }
        return CSV.text(header: ["at", "admin", "action", "object_kind", "object_id", "reason", "detail"], rows: rows)
    }

    static func entry(
        _ admin: Identity,
        _ action: String,
        _ object: UUID,
        kind: String = "user",
        reason: String?,
        detail: String? = nil,
        at: Date
    ) -> AuditEntry {
        AuditEntry(
            id: UUID(),
            at: at,
            admin: admin.user.username,
            action: action,
            objectKind: kind,
            objectId: object.uuidString.lowercased(),
            reason: reason,
            detail: detail
        )
    }
}
