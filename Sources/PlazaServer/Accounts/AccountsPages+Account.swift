import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore

/// The account page: profile, address, password, devices, deletion.
extension AccountsPages {
    struct AccountPage: Sendable {
        struct Device: Sendable {
            var id: String
            var device: String
            var lastSeen: String
            var current: Bool
        }

        var shell: Shell
        var profile: FormState
        var genders: [Option]
        var student: Bool
        var email: FormState
        var password: FormState
        var delete: FormState
        var sessions: [Device]
        var roleLabel: String
    }

    /// Signed in: profile, address, password, devices, deletion.
    @Sendable func accountPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderAccount(context: context, notice: notice(request))
    }

    private func renderAccount(
        context: AuthenticatedContext, notice: String? = nil, profile: FormState? = nil, email: FormState? = nil, password: FormState? = nil,
        delete: FormState? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let user = context.identity.user
        let sessions = try await accounts.listSessions(context.identity, limit: 50, cursor: nil)
        let formatter = ISO8601DateFormatter()
        let page = AccountPage(
            shell: Shell(title: "Your account", context: context, notice: notice),
            profile: profile
                ?? FormState(names: ["displayName", "birthDate"]).with("displayName", user.displayName).with("birthDate", user.birthDate ?? ""),
            genders: Self.genderOptions(selected: user.gender?.rawValue), student: user.student,
            email: email ?? FormState(names: ["email", "password"]).with("email", user.email),
            password: password ?? FormState(names: ["currentPassword", "newPassword"]),
            delete: delete ?? FormState(names: ["password"]),
            sessions: sessions.items.map {
                AccountPage.Device(id: $0.id.uuidString, device: $0.device, lastSeen: formatter.string(from: $0.lastSeenAt), current: $0.current)
            },
            roleLabel: user.role.rawValue.capitalized)
        return renderer.render("accounts/account", page, status: status)
    }

    @Sendable func saveProfile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let update = ProfileUpdate(
            displayName: form["displayName"], birthDate: form["birthDate"].trimmingCharacters(in: .whitespaces),
            gender: Gender(rawValue: form["gender"]), student: form["student"] == "on")
        do {
            _ = try await accounts.updateProfile(context.identity, update)
        } catch let error as PlazaError where error.status.code < 500 {
            return try await renderAccount(context: context, profile: FormState(form, names: ["displayName", "birthDate"], error: error), status: error.status)
        }
        return PageRenderer.seeOther("/account?notice=profile")
    }

    @Sendable func changePassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            try await accounts.changePassword(
                context.identity, ChangePasswordRequest(currentPassword: form["currentPassword"], newPassword: form["newPassword"]),
                client: context.clientAddress)
        } catch let error as PlazaError where error.status.code < 500 {
            return try await renderAccount(context: context, password: FormState(form, names: ["currentPassword", "newPassword"], error: error), status: error.status)
        }
        return PageRenderer.seeOther("/account?notice=password")
    }

    @Sendable func changeEmail(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            _ = try await accounts.changeEmail(context.identity, ChangeEmailRequest(email: form["email"], password: form["password"]), client: context.clientAddress)
        } catch let error as PlazaError where error.status.code < 500 {
            return try await renderAccount(context: context, email: FormState(form, names: ["email", "password"], error: error), status: error.status)
        }
        return PageRenderer.seeOther("/verify-email?email=\(Self.escape(AccountRules.normalizedEmail(form["email"])))&notice=sent")
    }

    @Sendable func revokeSession(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let id = UUID(uuidString: context.parameters.get("id") ?? "") else { throw PlazaError.notFound("session") }
        try await accounts.revokeSession(context.identity, id: id)
        return PageRenderer.seeOther(id == context.identity.sessionID ? "/login?notice=loggedout" : "/account?notice=revoked")
    }

    @Sendable func deleteAccount(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            try await accounts.deleteAccount(context.identity, password: form["password"], client: context.clientAddress)
        } catch let error as PlazaError where error.status.code < 500 {
            return try await renderAccount(context: context, delete: FormState(form, names: ["password"], error: error), status: error.status)
        }
        var response = PageRenderer.seeOther("/login?notice=deleted")
        response.setCookie(WebCookies.expiredSession(secure: configuration.servesOverTLS))
        return response
    }
}
