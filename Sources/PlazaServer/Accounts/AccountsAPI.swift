import Foundation
import Hummingbird
import PlazaCore

/// `/v1/auth/*` and `/v1/me*`: the accounts API of `openapi.yaml`.
struct AccountsAPI: Sendable {
    let accounts: AccountService
    let maxBody: Int

    func addRoutes(to v1: RouterGroup<AppRequestContext>, authenticated: RouterGroup<AuthenticatedContext>) {
        v1.post("auth/register", use: register)
        v1.post("auth/verify-email", use: verifyEmail)
        v1.post("auth/resend-code", use: resendCode)
        v1.post("auth/login", use: login)
        v1.post("auth/refresh", use: refresh)
        v1.post("auth/forgot-password", use: forgotPassword)
        v1.post("auth/reset-password", use: resetPassword)
        authenticated.post("auth/logout", use: logout)
        authenticated.get("me", use: me)
        authenticated.patch("me", use: updateProfile)
        authenticated.delete("me", use: deleteAccount)
        authenticated.post("me/password", use: changePassword)
        authenticated.post("me/email", use: changeEmail)
        authenticated.get("me/sessions", use: listSessions)
        authenticated.delete("me/sessions/:id", use: revokeSession)
        authenticated.get("me/app-passwords", use: appPasswords)
        authenticated.post("me/app-passwords", use: createAppPassword)
        authenticated.delete("me/app-passwords/:id", use: deleteAppPassword)
        authenticated.get("me/owntracks", use: ownTracksDevices)
        authenticated.post("me/owntracks", use: createOwnTracks)
        authenticated.get("people/:username", use: person)
    }

    /// Signed in: who a username (or `@handle`) is, to confirm a payment's recipient.
    @Sendable func person(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let handle = context.parameters.get("username").map { $0.removingPercentEncoding ?? $0 } ?? ""
        return try .json(try await accounts.person(handle))
    }

    /// Signed in: the app passwords (for devices that cannot log in, such as OwnTracks), without their secrets.
    @Sendable func appPasswords(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await accounts.appPasswords(context.identity), nextCursor: nil))
    }

    /// Signed in: a new app password; its secret is in this answer only.
    @Sendable func createAppPassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: AppPasswordRequest.self, limit: maxBody)
        return try .json(
            try await accounts.createAppPassword(context.identity, body, claim: context.idempotencyClaim),
            status: .created
        )
    }

    @Sendable func deleteAppPassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await accounts.deleteAppPassword(
            context.identity,
            id: try Query.id(context.parameters, "id", "app password")
        )
        return .noContent
    }

    /// Signed in: the phones set up for OwnTracks, with when Plaza last heard from each.
    @Sendable func ownTracksDevices(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(Page(items: try await accounts.ownTracksDevices(context.identity), nextCursor: nil))
    }

    /// Signed in: an app password for OwnTracks and the link (and QR code) that sets the app up; shown this once.
    @Sendable func createOwnTracks(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSONIfPresent(as: OwnTracksRequest.self, limit: maxBody)
        return try .json(
            try await accounts.createOwnTracks(context.identity, body ?? OwnTracksRequest()),
            status: .created
        )
    }

    /// Anyone: creates a customer or merchant account and mails a verification code.
    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: RegisterRequest.self, limit: maxBody)
        return try .json(try await accounts.register(body, client: context.clientAddress), status: .created)
    }

    /// Anyone: verifies an address with its mailed code.
    @Sendable func verifyEmail(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: VerifyEmailRequest.self, limit: maxBody)
        return try .json(try await accounts.verifyEmail(body, client: context.clientAddress))
    }

    /// Anyone: mails a new code when the address has an unverified account; always 202.
    @Sendable func resendCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: EmailRequest.self, limit: maxBody)
        try await accounts.resendCode(email: body.email, client: context.clientAddress)
        return try .json(Acknowledgement(status: "accepted"), status: .accepted)
    }

    /// Anyone: e-mail or username and password for a token pair.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: LoginRequest.self, limit: maxBody)
        return try .json(
            try await accounts.login(body, client: context.clientAddress, userAgent: request.headers[.userAgent])
        )
    }

    /// Anyone holding a refresh token: a new pair; the old refresh token stops working.
    @Sendable func refresh(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: RefreshRequest.self, limit: maxBody)
        return try .json(try await accounts.refresh(body.refreshToken))
    }

    /// Anyone: mails a reset code when the address has an account; always 202.
    @Sendable func forgotPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: EmailRequest.self, limit: maxBody)
        try await accounts.forgotPassword(email: body.email, client: context.clientAddress)
        return try .json(Acknowledgement(status: "accepted"), status: .accepted)
    }

    /// Anyone with a reset code: sets a new password and signs out every session.
    @Sendable func resetPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ResetPasswordRequest.self, limit: maxBody)
        try await accounts.resetPassword(body, client: context.clientAddress)
        return try .json(Acknowledgement())
    }

    /// Signed in: ends the calling session.
    @Sendable func logout(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await accounts.logout(context.identity)
        return .noContent
    }

    /// Signed in: the caller's own account.
    @Sendable func me(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(context.identity.user.dto)
    }

    /// Signed in: changes the given profile fields.
    @Sendable func updateProfile(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ProfileUpdate.self, limit: maxBody)
        return try .json(try await accounts.updateProfile(context.identity, body))
    }

    /// Signed in, with the password: erases the account.
    @Sendable func deleteAccount(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: DeleteAccountRequest.self, limit: maxBody)
        try await accounts.deleteAccount(context.identity, password: body.password, client: context.clientAddress)
        return .noContent
    }

    /// Signed in, with the current password: sets a new one; other sessions end.
    @Sendable func changePassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ChangePasswordRequest.self, limit: maxBody)
        try await accounts.changePassword(context.identity, body, client: context.clientAddress)
        return .noContent
    }

    /// Signed in, with the password: moves to a new address, to be verified again.
    @Sendable func changeEmail(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: ChangeEmailRequest.self, limit: maxBody)
        return try .json(try await accounts.changeEmail(context.identity, body, client: context.clientAddress))
    }

    /// Signed in: the caller's live sessions, paged.
    @Sendable func listSessions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let paging = try Paging(request.uri)
        return try .json(try await accounts.listSessions(context.identity, limit: paging.limit, cursor: paging.cursor))
    }

    /// Signed in: revokes one of the caller's own sessions.
    @Sendable func revokeSession(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let id = UUID(uuidString: context.parameters.get("id") ?? "") else {
            throw PlazaError.notFound("session")
        }
        try await accounts.revokeSession(context.identity, id: id)
        return .noContent
    }
}
