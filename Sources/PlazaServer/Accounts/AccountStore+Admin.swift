import Foundation
import PlazaCore
import SQLKit

/// The accounts' SQL the admin console needs: search, one account, suspension and role.
extension AccountStore {
    static let adminColumns = [
        "id", "username", "display_name", "email", "role", "email_verified", "created_at", "suspended_at",
        "suspension_reason",
        "approval", "approval_reason",
    ]

    /// Live accounts whose username, name or e-mail contains `query` (any case), by username, after `after`.
    func adminUsers(
        matching query: String,
        limit: Int,
        after: String?,
        on db: any SQLDatabase
    ) async throws -> [AdminUser] {
        let pattern =
            "%\(query.lowercased().replacingOccurrences(of: "%", with: "").replacingOccurrences(of: "_", with: ""))%"
        var select = db.select().columns(Self.adminColumns.map { SQLIdentifier($0) }).from("users").where(
            "deleted_at",
            .is,
            SQLLiteral.null
        )
        .where {
            $0.where(SQLFunction("lower", args: SQLIdentifier("username")), .like, SQLBind(pattern))
                .orWhere(SQLFunction("lower", args: SQLIdentifier("display_name")), .like, SQLBind(pattern))
                .orWhere(SQLFunction("lower", args: SQLIdentifier("email")), .like, SQLBind(pattern))
        }
        if let after { select = select.where("username", .greaterThan, after) }
        return try await select.orderBy("username").limit(limit).all().map(Self.adminUser)
    }

    /// The ids of every live admin account (whom `plaza verify`'s daily run alerts).
    func adminIds(on db: any SQLDatabase) async throws -> [UUID] {
        try await db.select().column("id").from("users").where("role", .equal, Role.admin.rawValue).where(
            "deleted_at",
            .is,
            SQLLiteral.null
        )
        .all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    func adminUser(_ id: UUID, on db: any SQLDatabase) async throws -> AdminUser? {
        try await db.select().columns(Self.adminColumns.map { SQLIdentifier($0) }).from("users").where("id", .equal, id)
            .where("deleted_at", .is, SQLLiteral.null).first().map(Self.adminUser)
    }

    /// The suspension's reason when the account is suspended (an empty reason is none).
    func suspension(of id: UUID, on db: any SQLDatabase) async throws -> (at: Date, reason: String?)? {
        guard
            let row = try await db.select().columns("suspended_at", "suspension_reason").from("users").where(
                "id",
                .equal,
                id
            ).first(),
            let at = try row.decode(column: "suspended_at", as: Date?.self)
        else { return nil }
        return (at, try row.decode(column: "suspension_reason", as: String?.self))
    }

    /// Suspends (`at` given) or reinstates (nil) the account.
    func setSuspension(_ id: UUID, at: Date?, reason: String?, on db: any SQLDatabase) async throws {
        try await db.update("users").set("suspended_at", to: at).set("suspension_reason", to: reason).where(
            "id",
            .equal,
            id
        ).run()
    }

    /// An admin who makes someone a merchant has approved them (a merchant waiting for review stays so).
    package func setRole(_ id: UUID, _ role: Role, now: Date, on db: any SQLDatabase) async throws {
        var update = db.update("users").set("role", to: role.rawValue).set("updated_at", to: now)
        if role == .merchant {
            update = update.set(
                "approval",
                to: SQLFunction("coalesce", args: SQLIdentifier("approval"), SQLBind(ApprovalState.approved.rawValue))
            )
        }
        try await update.where("id", .equal, id).run()
    }

    /// A refused merchant who changed their business waits for review again; true when they were refused.
    func reopenApproval(_ id: UUID, now: Date, on db: any SQLDatabase) async throws -> Bool {
        try await db.update("users").set("approval", to: ApprovalState.pending.rawValue).set(
            "approval_reason",
            to: SQLLiteral.null
        )
        .set("updated_at", to: now).where("id", .equal, id).where("approval", .equal, ApprovalState.rejected.rawValue)
        .returning("id").first()
            != nil
    }

    /// An admin's decision on a merchant (accounts that are not merchants are left alone).
    func setApproval(
        _ id: UUID,
        _ state: ApprovalState,
        reason: String?,
        now: Date,
        on db: any SQLDatabase
    ) async throws {
        try await db.update("users").set("approval", to: state.rawValue).set("approval_reason", to: reason).set(
            "updated_at",
            to: now
        )
        .where("id", .equal, id).where("role", .equal, Role.merchant.rawValue).run()
    }

    static func adminUser(_ row: any SQLRow) throws -> AdminUser {
        AdminUser(
            id: try row.decode(column: "id", as: UUID.self),
            username: try row.decode(column: "username", as: String.self),
            displayName: try row.decode(column: "display_name", as: String.self),
            email: try row.decode(column: "email", as: String.self),
            role: Role(rawValue: try row.decode(column: "role", as: String.self)) ?? .customer,
            emailVerified: try row.decode(column: "email_verified", as: Bool.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            suspendedAt: try row.decode(column: "suspended_at", as: Date?.self),
            suspensionReason: try row.decode(column: "suspension_reason", as: String?.self),
            merchantApproval: try row.decode(column: "approval", as: String?.self).flatMap(
                ApprovalState.init(rawValue:)
            ).map {
                MerchantApproval(state: $0, reason: try row.decode(column: "approval_reason", as: String?.self))
            }
        )
    }
}
