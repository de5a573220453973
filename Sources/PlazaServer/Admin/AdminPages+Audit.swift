import Foundation
import Hummingbird
import PlazaCore

/// The console's audit log: every admin action, newest first, and its CSV.
extension AdminPages {
    struct AuditRow: Sendable {
        var at: String
        var datetime: String
        var admin: String
        var action: String
        var object: String
        var link: String?
        var reason: String?
        var detail: String?
    }

    struct AuditPage: Sendable {
        var shell: Shell
        var tabs: Tabs
        var rows: [AuditRow]
        var next: String?
    }

    @Sendable func auditLog(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let page = try await admin.auditLog(limit: 50, cursor: request.uri.queryParameters.get("cursor"))
        let reader = context.reader
        let people = try await admin.auditSubjects(page.items)
        let rows = page.items.map { entry in
            // "Suspended Carla Friend (@carla)"; an account since erased keeps the generic words.
            let person = people[entry.objectId.lowercased()]
            return AuditRow(
                at: reader.when(entry.at),
                datetime: reader.machine(entry.at),
                admin: entry.admin,
                action: person == nil ? Self.auditLabel(entry.action) : Self.auditVerb(entry.action),
                object: person ?? entry.objectKind,
                link: AdminService.personKinds.contains(entry.objectKind) ? "/admin/users/\(entry.objectId)" : nil,
                reason: entry.reason,
                detail: entry.detail
            )
        }
        let model = AuditPage(
            shell: Shell(title: say("Audit log"), context: context),
            tabs: Tabs(audit: true),
            rows: rows,
            next: page.nextCursor.map { "/admin/audit?cursor=\($0)" }
        )
        return renderer.render("admin/audit", model)
    }

    @Sendable func auditCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        .csv(try await admin.auditCSV(), filename: "plaza-audit-log.csv")
    }
}
