import Foundation
import Hummingbird
import PlazaCore

/// The Accounts tab: the search, one account's page, suspending and reinstating it, and changing its role.
extension AdminPages {
    struct UserRow: Sendable {
        var id: String
        var username: String
        var displayName: String
        var email: String
        var role: String
        var standing: String?
    }

    struct UsersPage: Sendable {
        var shell: Shell
        var tabs: Tabs
        var query: String
        var searched: Bool
        var rows: [UserRow]
        var next: String?
    }

    @Sendable func users(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = request.uri.queryParameters.get("q") ?? ""
        let page = try await admin.users(matching: query, limit: 25, after: request.uri.queryParameters.get("after"))
        let model = UsersPage(
            shell: Shell(title: say("Accounts"), context: context),
            tabs: Tabs(users: true),
            query: query,
            searched: !query.isEmpty,
            rows: page.items.map {
                UserRow(
                    id: $0.id.uuidString.lowercased(),
                    username: $0.username,
                    displayName: $0.displayName,
                    email: $0.email,
                    role: Self.roleTag($0.role),
                    standing: Self.standing($0)
                )
            },
            next: page.nextCursor.map {
                "/admin/users?q=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&after=\($0)"
            }
        )
        return renderer.render("admin/users", model)
    }

    /// "Suspended", "Merchant: waiting for approval", ...: what stands out about an account, if anything.
    static func standing(_ user: AdminUser) -> String? {
        if user.suspendedAt != nil { return say("Suspended") }
        switch user.merchantApproval?.state {
        case .pending: return say("Waiting for approval")
        case .rejected: return say("Merchant refused")
        default: return user.emailVerified ? nil : say("E-mail not verified")
        }
    }

    struct UserPage: Sendable {
        var shell: Shell
        var tabs: Tabs
        var id: String
        var user: AdminUser
        /// The role in the reader's words.
        var roleWords: String
        var joined: String
        var suspended: String?
        /// The reason the admin gave, which the person read.
        var reason: String?
        /// "12.50 USD": what the person holds in the wallet now.
        var balance: String
        var approval: String?
        var me: Bool
        var roles: [Choice]
        var suspendForm: FormState
    }

    static let userNotices = [
        "suspended": phrase("Suspended: every session of this account ended, and they were told why."),
        "reinstated": phrase("Reinstated: this account can log in again, and they were told."),
        "role": phrase("The role was changed."),
    ]

    @Sendable func user(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try Query.id(context.parameters, "id", "user")
        let user = try await admin.user(id)
        let balances = try await admin.balances(of: id)
        let reader = context.reader
        let model = UserPage(
            shell: Shell(
                title: user.displayName,
                context: context,
                notice: request.uri.queryParameters.get("notice").flatMap { Self.userNotices[$0].map { say($0) } }
            ),
            tabs: Tabs(users: true),
            id: id.uuidString.lowercased(),
            user: user,
            roleWords: Self.roleTag(user.role),
            joined: reader.full(user.createdAt),
            suspended: user.suspendedAt.map { reader.full($0) },
            reason: user.suspendedAt == nil ? nil : user.suspensionReason,
            balance: balances.map { reader.money($0) }.joined(separator: ", "),
            approval: user.merchantApproval.map {
                switch $0.state {
                case .approved: say("Approved")
                case .pending: say("Waiting for approval")
                case .rejected: say("Refused: {reason}", ["reason": $0.reason ?? ""])
                }
            },
            me: id == context.identity.user.id,
            roles: Role.allCases.map {
                Choice(value: $0.rawValue, label: AccountsPages.roleName($0), selected: $0 == user.role)
            },
            suspendForm: context.page.form("suspend") ?? FormState(names: ["reason"])
        )
        return renderer.render("admin/user", model)
    }

    @Sendable func suspend(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "user")
        do {
            _ = try await admin.suspend(context.identity, id, reason: form["reason"])
        } catch let error as PlazaError where error.status.code < 500 && error.status != .notFound {
            return renderer.refused(
                "suspend",
                FormState(form, names: ["reason"], error: error),
                returnTo: "\(Self.userPath(id))#suspend"
            )
        }
        return PageRenderer.seeOther("\(Self.userPath(id))?notice=suspended")
    }

    @Sendable func reinstate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "user")
        _ = try await admin.reinstate(context.identity, id)
        return PageRenderer.seeOther("\(Self.userPath(id))?notice=reinstated")
    }

    @Sendable func changeRole(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "user")
        guard let role = Role(rawValue: form["role"]) else {
            return renderer.refused(alert: say("Pick a role."), returnTo: Self.userPath(id))
        }
        do {
            _ = try await admin.changeRole(context.identity, id, to: role)
        } catch let error as PlazaError where error.status == .conflict {
            return renderer.refused(alert: error.sentence, returnTo: Self.userPath(id))
        }
        return PageRenderer.seeOther("\(Self.userPath(id))?notice=role")
    }

    static func userPath(_ id: UUID) -> String { "/admin/users/\(id.uuidString.lowercased())" }
}
