import Foundation
import PlazaCore
import SQLKit

/// The audit log: written in the transaction of the admin action it records; never changed (the database refuses).
struct AuditStore: Sendable {
    func record(_ entry: AuditEntry, adminID: UUID, on db: any SQLDatabase) async throws {
        try await db.insert(into: "audit_log")
            .columns("id", "at", "admin_id", "admin_username", "action", "object_kind", "object_id", "reason", "detail")
            .values(
                SQLBind(entry.id),
                SQLBind(entry.at),
                SQLBind(adminID),
                SQLBind(entry.admin),
                SQLBind(entry.action),
                SQLBind(entry.objectKind),
                SQLBind(entry.objectId),
                SQLBind(entry.reason),
                SQLBind(entry.detail)
            )
            .run()
    }

    /// Newest first, after the entry `after` (the last of the previous page; see `RowCursor`).
    func entries(limit: Int, after: UUID?, on db: any SQLDatabase) async throws -> [AuditEntry] {
        let select = db.select().columns(
            "id",
            "at",
            "admin_username",
            "action",
            "object_kind",
            "object_id",
            "reason",
            "detail"
        )
        .from("audit_log").newestFirst(after: after, in: "audit_log", by: "at")
        return try await select.limit(limit).all().map { row in
            AuditEntry(
                id: try row.decode(column: "id", as: UUID.self),
                at: try row.decode(column: "at", as: Date.self),
                admin: try row.decode(column: "admin_username", as: String.self),
                action: try row.decode(column: "action", as: String.self),
                objectKind: try row.decode(column: "object_kind", as: String.self),
                objectId: try row.decode(column: "object_id", as: String.self),
                reason: try row.decode(column: "reason", as: String?.self),
                detail: try row.decode(column: "detail", as: String?.self)
            )
        }
    }
}
