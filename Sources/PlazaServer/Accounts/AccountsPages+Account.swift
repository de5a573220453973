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
        var timeZones: [Option]
        var timeZoneNow: String
        var email: FormState
        var password: FormState
        var delete: FormState
        var sessions: [Device]
        var roleLabel: String
        var passwords: [AppPasswordRow]
        var passwordForm: FormState
        var newPassword: NewAppPassword?
        /// The language Plaza speaks to this account in, named in itself ("Deutsch").
        var language: String
    }

    struct AppPasswordRow: Sendable {
        var id: String
        var name: String
        var lastUsed: String?
    }

    /// Shown once, right after creation, with what to type into OwnTracks.
    struct NewAppPassword: Sendable {
        var name: String
        var username: String
        var password: String
        var url: String
    }

    /// Signed in: profile, address, password, devices, deletion.
    @Sendable func accountPage(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await renderAccount(context: context, notice: notice(request, context.reader))
    }

    private func renderAccount(
        context: AuthenticatedContext,
        notice: String? = nil,
        newPassword: NewAppPassword? = nil
    ) async throws -> Response {
        let user = context.identity.user
        let refused = context.page
        let sessions = try await accounts.listSessions(context.identity, limit: 50, cursor: nil)
        let passwords = try await accounts.appPasswords(context.identity)
        let page = AccountPage(
            shell: Shell(title: say("Your account"), context: context, notice: notice),
            profile: refused.form("profile")
                ?? FormState(names: ["displayName", "birthDate"]).with("displayName", user.displayName).with(
                    "birthDate",
                    user.birthDate ?? ""
                ),
            genders: Self.genderOptions(selected: user.gender?.rawValue, words: context.reader.words),
            student: user.student,
            timeZones: Self.timeZoneOptions(selected: user.timeZone),
            timeZoneNow: context.reader.timeZone.identifier,
            email: refused.form("email") ?? FormState(names: ["email", "password"]).with("email", user.email),
            password: refused.form("password") ?? FormState(names: ["currentPassword", "newPassword"]),
            delete: refused.form("delete") ?? FormState(names: ["password"]),
            sessions: sessions.items.map {
                AccountPage.Device(
                    id: $0.id.uuidString,
                    device: $0.device,
                    lastSeen: context.reader.when($0.lastSeenAt),
                    current: $0.current
                )
            },
            roleLabel: Self.roleName(user.role),
            passwords: passwords.map {
                AppPasswordRow(
                    id: $0.id.uuidString.lowercased(),
                    name: $0.name,
                    lastUsed: $0.lastUsedAt.map { context.reader.when($0) }
                )
            },
            passwordForm: refused.form("passwordForm") ?? FormState(names: ["name"]).with("name", "OwnTracks"),
            newPassword: newPassword,
            language: context.reader.words.language.name
        )
        return renderer.render("accounts/account", page)
    }

    /// An app password for a device that cannot log in (OwnTracks): its secret shown once, with the settings to type.
    @Sendable func createAppPassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            let created = try await accounts.createAppPassword(
                context.identity,
                AppPasswordRequest(name: form["name"]),
                claim: nil
            )
            return try await renderAccount(
                context: context,
                newPassword: NewAppPassword(
                    name: created.name,
                    username: context.identity.user.username,
                    password: created.password ?? "",
                    url: "\(configuration.baseURL)/v1/owntracks"
                )
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "passwordForm",
                FormState(form, names: ["name"], error: error),
                returnTo: "/account#app-passwords"
            )
        }
    }

    @Sendable func deleteAppPassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await accounts.deleteAppPassword(
            context.identity,
            id: try Query.id(context.parameters, "id", "app password")
        )
        return PageRenderer.seeOther("/account?notice=app-password-deleted#app-passwords")
    }

    /// A role as its holder reads it.
    static func roleName(_ role: Role) -> String {
        switch role {
        case .customer: say("Customer")
        case .merchant: say("Merchant")
        case .admin: say("Admin")
        case .designer: say("Designer")
        }
    }

    /// "This device's time zone" first, then every zone Foundation knows, by name.
    static func timeZoneOptions(selected: String?) -> [Option] {
        [Option(value: "", label: say("This device's time zone"), selected: selected == nil)]
            + TimeZone.knownTimeZoneIdentifiers.sorted().map {
                Option(value: $0, label: $0.replacingOccurrences(of: "_", with: " "), selected: $0 == selected)
            }
    }

    @Sendable func saveProfile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let update = ProfileUpdate(
            displayName: form["displayName"],
            birthDate: form["birthDate"].trimmingCharacters(in: .whitespaces),
            gender: Gender(rawValue: form["gender"]),
            student: form["student"] == "on",
            timeZone: form["timeZone"]
        )
        do {
            _ = try await accounts.updateProfile(context.identity, update)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "profile",
                FormState(form, names: ["displayName", "birthDate"], error: error),
                returnTo: "/account#profile-heading"
            )
        }
        return PageRenderer.seeOther("/account?notice=profile")
    }

    @Sendable func changePassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            try await accounts.changePassword(
                context.identity,
                ChangePasswordRequest(currentPassword: form["currentPassword"], newPassword: form["newPassword"]),
                client: context.clientAddress
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "password",
                FormState(form, names: ["currentPassword", "newPassword"], error: error),
                returnTo: "/account#password-heading"
            )
        }
        return PageRenderer.seeOther("/account?notice=password")
    }

    @Sendable func changeEmail(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            _ = try await accounts.changeEmail(
                context.identity,
                ChangeEmailRequest(email: form["email"], password: form["password"]),
                client: context.clientAddress
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "email",
                FormState(form, names: ["email", "password"], error: error),
                returnTo: "/account#email-heading"
            )
        }
        return PageRenderer.seeOther(
            "/verify-email?email=\(Self.escape(AccountRules.normalizedEmail(form["email"])))&notice=sent"
        )
    }

    @Sendable func revokeSession(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let id = UUID(uuidString: context.parameters.get("id") ?? "") else {
            throw PlazaError.notFound("session")
        }
        try await accounts.revokeSession(context.identity, id: id)
        return PageRenderer.seeOther(
            id == context.identity.sessionID ? "/login?notice=loggedout" : "/account?notice=revoked"
        )
    }

    @Sendable func deleteAccount(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            try await accounts.deleteAccount(
                context.identity,
                password: form["password"],
                client: context.clientAddress
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "delete",
                FormState(form, names: ["password"], error: error),
                returnTo: "/account#delete-heading"
            )
        }
        var response = PageRenderer.seeOther("/login?notice=deleted")
        response.setCookie(WebCookies.expiredSession(secure: configuration.servesOverTLS))
        return response
    }
}
