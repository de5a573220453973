import Foundation
import Hummingbird
import PlazaCore

/// `/v1/admin/*` of `openapi.yaml`: accounts, the review queue and the audit log, for admins only (every route;
/// others get 403).
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
        routes.get("review-queue", use: reviewQueue)
        routes.get("review-queue/:id", use: reviewItem)
        routes.post("review-queue/:id/claim", use: claim)
        routes.post("review-queue/:id/release", use: release)
        routes.post("review-queue/:id/approve", use: approve)
        routes.post("review-queue/:id/reject", use: reject)
        routes.post("campaigns/:id/stop", use: stopCampaign)
        routes.get("audit-log", use: auditLog)
        routes.get("audit-log.csv", use: auditCSV)
        routes.get("backups", use: backups)
    }

    @Sendable func users(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(
            try await admin.users(
                matching: request.uri.queryParameters.get("q") ?? "",
                limit: paging.limit,
                after: paging.cursor
            )
        )
    }

    @Sendable func user(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await admin.user(try Query.id(context.parameters, "id", "user")))
    }

    @Sendable func suspend(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: SuspendRequest.self, limit: maxBody)
        return try .json(
            try await admin.suspend(
                context.identity,
                try Query.id(context.parameters, "id", "user"),
                reason: body.reason
            )
        )
    }

    @Sendable func reinstate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await admin.reinstate(context.identity, try Query.id(context.parameters, "id", "user")))
    }

    @Sendable func changeRole(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: RoleChange.self, limit: maxBody)
        return try .json(
            try await admin.changeRole(context.identity, try Query.id(context.parameters, "id", "user"), to: body.role)
        )
    }

    @Sendable func reviewQueue(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        let query = request.uri.queryParameters
        let state = try query.get("state").map { raw in
            guard let state = ReviewState(rawValue: raw) else {
                throw PlazaError.validation(field: "state", phrase("Use open, approved or rejected."))
            }
            return state
        }
        let kind = try query.get("kind").map { raw in
            guard let kind = ReviewKind(rawValue: raw) else {
                throw PlazaError.validation(field: "kind", phrase("No review items are of this kind."))
            }
            return kind
        }
        return try .json(
            try await admin.reviewQueue(state: state ?? .open, kind: kind, limit: paging.limit, cursor: paging.cursor)
        )
    }

    @Sendable func reviewItem(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await admin.reviewItem(try Query.id(context.parameters, "id", "review item")))
    }

    @Sendable func claim(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await admin.claim(context.identity, try Query.id(context.parameters, "id", "review item")))
    }

    @Sendable func release(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await admin.release(context.identity, try Query.id(context.parameters, "id", "review item")))
    }

    /// Approves; a report or an appeal sends the chosen `action` and the statement of reasons.
    @Sendable func approve(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSONIfPresent(as: ReviewApproval.self, limit: maxBody)
        return try .json(
            try await admin.decide(
                context.identity,
                try Query.id(context.parameters, "id", "review item"),
                approve: true,
                reason: body?.reason,
                action: body?.action
            )
        )
    }

    @Sendable func reject(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ReviewReason.self, limit: maxBody)
        return try .json(
            try await admin.decide(
                context.identity,
                try Query.id(context.parameters, "id", "review item"),
                approve: false,
                reason: body.reason
            )
        )
    }

    /// Stops a running campaign with the reason its business reads (issue 40).
    @Sendable func stopCampaign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: CampaignStopRequest.self, limit: maxBody)
        return try .json(
            try await admin.stopCampaign(
                context.identity,
                try Query.id(context.parameters, "id", "campaign"),
                reason: body.reason
            )
        )
    }

    @Sendable func auditLog(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await admin.auditLog(limit: paging.limit, cursor: paging.cursor))
    }

    @Sendable func auditCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        .csv(try await admin.auditCSV(), filename: "plaza-audit-log.csv")
    }
}

extension AdminAPI {
    /// The database copies `plaza serve` keeps (`PLAZA_BACKUP_DIR`), newest first; off: `every` null, no items.
    @Sendable func backups(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(admin.backupList())
    }
}

/// Admins only: everyone else signed in gets 403 (the signed-out already got 401).
struct AdminOnly: RouterMiddleware {
    typealias Context = AuthenticatedContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try context.identity.require(.admin)
        return try await next(request, context)
    }
}
