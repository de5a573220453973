import Foundation
import Hummingbird
import PlazaCore

/// `/v1/admin/*` of `openapi.yaml`: accounts and the audit log, for admins only (every route; others get 403).
struct AdminAPI: Sendable {
    let admin: AdminService
    let maxBody: Int

    func addRoutes(to authenticated: RouterGroup<AuthenticatedContext>) {
        let routes = authenticated.group("admin").add(middleware: AdminOnly())
        routes.get("users", use: users)
        routes.get("users/:id", use: user)
        routes.post("users/:id/suspend", use: suspend)
        routes.post("users/:id/reinstate", use: reinstate)
        routes.put("users/:id/role", use: changeRole)
        routes.get("audit-log", use: auditLog)
        routes.get("audit-log.csv", use: auditCSV)
    }

    @Sendable func users(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await admin.users(matching: request.uri.queryParameters.get("q") ?? "", limit: paging.limit, after: paging.cursor))
    }

    @Sendable func user(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await admin.user(try Query.id(context.parameters, "id", "user")))
    }

    @Sendable func suspend(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: SuspendRequest.self, limit: maxBody)
        return try .json(try await admin.suspend(context.identity, try Query.id(context.parameters, "id", "user"), reason: body.reason))
    }

    @Sendable func reinstate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await admin.reinstate(context.identity, try Query.id(context.parameters, "id", "user")))
    }

    @Sendable func changeRole(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: RoleChange.self, limit: maxBody)
        return try .json(try await admin.changeRole(context.identity, try Query.id(context.parameters, "id", "user"), to: body.role))
    }

    @Sendable func auditLog(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await admin.auditLog(limit: paging.limit, cursor: paging.cursor))
    }

    @Sendable func auditCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        .csv(try await admin.auditCSV(), filename: "plaza-audit-log.csv")
    }
}

/// Admins only: everyone else signed in gets 403 (the signed-out already got 401).
struct AdminOnly: RouterMiddleware {
    typealias Context = AuthenticatedContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try context.identity.require(.admin)
        return try await next(request, context)
    }
}
