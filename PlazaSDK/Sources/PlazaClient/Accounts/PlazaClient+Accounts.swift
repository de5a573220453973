import Foundation
import PlazaCore

extension PlazaClient {
    /// Creates an account; a six-digit code is mailed to verify the address.
    public func register(_ request: RegisterRequest) async throws -> User {
        try await send("POST", "v1/auth/register", body: request)
    }

    /// Verifies the address with the mailed code.
    @discardableResult
    public func verifyEmail(_ email: String, code: String) async throws -> User {
        try await send("POST", "v1/auth/verify-email", body: VerifyEmailRequest(email: email, code: code))
    }

    /// Mails a new verification code (the server answers the same for any address).
    public func resendCode(to email: String) async throws {
        let _: Acknowledgement = try await send("POST", "v1/auth/resend-code", body: EmailRequest(email: email))
    }

    /// Logs in with e-mail or username; the client keeps the tokens.
    @discardableResult
    /// Signs in with the device token of the last log-in on this device (kept by the `TokenStore`), so that someone
    /// guessing this account's password elsewhere does not slow its owner down.
    public func login(_ login: String, password: String, device: String? = nil) async throws -> User {
        let known = await tokens.store.loadDeviceToken()
        let response: TokenResponse = try await send(
            "POST",
            "v1/auth/login",
            body: LoginRequest(login: login, password: password, device: device, deviceToken: known)
        )
        await tokens.save(Tokens(response))
        if let deviceToken = response.deviceToken { await tokens.store.saveDeviceToken(deviceToken) }
        return response.user
    }

    /// Ends this session on the server and forgets the tokens.
    public func logout() async throws {
        defer { Task { await tokens.save(nil) } }
        do {
            try await sendVoid("POST", "v1/auth/logout", auth: .required)
        } catch PlazaClientError.notSignedIn {
            // Already signed out: nothing to end.
        }
        await tokens.save(nil)
    }

    /// Mails a password reset code when the address has an account.
    public func forgotPassword(email: String) async throws {
        let _: Acknowledgement = try await send("POST", "v1/auth/forgot-password", body: EmailRequest(email: email))
    }

    /// Sets a new password with the mailed code; every session, this one too, is signed out.
    public func resetPassword(email: String, code: String, newPassword: String) async throws {
        let _: Acknowledgement = try await send(
            "POST",
            "v1/auth/reset-password",
            body: ResetPasswordRequest(email: email, code: code, newPassword: newPassword)
        )
        await tokens.save(nil)
    }

    /// The signed-in user.
    /// Who a username (or `@handle`) is: show it before sending money.
    public func person(_ handle: String) async throws -> Person {
        let name =
            AccountRules.handle(handle).addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["_", "."]))
            ?? ""
        return try await send("GET", "v1/people/\(name)", auth: .required)
    }

    public func me() async throws -> User {
        try await send("GET", "v1/me", auth: .required)
    }

    /// Changes the given profile fields.
    public func updateProfile(_ update: ProfileUpdate) async throws -> User {
        try await send("PATCH", "v1/me", body: update, auth: .required)
    }

    /// Changes the password; other sessions are signed out.
    public func changePassword(current: String, new: String) async throws {
        try await sendVoid(
            "POST",
            "v1/me/password",
            body: ChangePasswordRequest(currentPassword: current, newPassword: new),
            auth: .required
        )
    }

    /// Moves the account to a new address, to be verified with a mailed code.
    public func changeEmail(to email: String, password: String) async throws -> User {
        try await send(
            "POST",
            "v1/me/email",
            body: ChangeEmailRequest(email: email, password: password),
            auth: .required
        )
    }

    /// Erases the account and forgets the tokens.
    public func deleteAccount(password: String) async throws {
        try await sendVoid("DELETE", "v1/me", body: DeleteAccountRequest(password: password), auth: .required)
        await tokens.save(nil)
    }

    /// The signed-in devices, most recent first.
    public func sessions(limit: Int? = nil, cursor: String? = nil) async throws -> Page<SessionInfo> {
        var query: [URLQueryItem] = []
        if let limit { query.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        return try await send("GET", "v1/me/sessions", query: query, auth: .required)
    }

    /// Signs one device out.
    public func revokeSession(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/me/sessions/\(id.uuidString)", auth: .required)
    }

    /// App passwords for tracker apps (OwnTracks); the secret is in the answer to its creation only.
    public func appPasswords() async throws -> [AppPassword] {
        let page: Page<AppPassword> = try await send("GET", "v1/me/app-passwords", auth: .required)
        return page.items
    }

    public func createAppPassword(named name: String) async throws -> AppPassword {
        try await send("POST", "v1/me/app-passwords", body: AppPasswordRequest(name: name), auth: .required)
    }

    public func deleteAppPassword(_ id: UUID) async throws {
        try await sendVoid("DELETE", "v1/me/app-passwords/\(id.uuidString.lowercased())", auth: .required)
    }

    /// A new app password for the OwnTracks app, with `configUrl` (and its QR code, `qrSvg`): opened on the phone, the
    /// link sets OwnTracks up to report to Plaza in the background. The link holds the secret and is not shown again.
    public func setUpOwnTracks(named name: String? = nil) async throws -> OwnTracksDevice {
        try await send("POST", "v1/me/owntracks", body: OwnTracksRequest(name: name), auth: .required)
    }

    /// The phones set up for OwnTracks, with when Plaza last heard from each. Revoke one with `deleteAppPassword`.
    public func ownTracksDevices() async throws -> [OwnTracksDevice] {
        let page: Page<OwnTracksDevice> = try await send("GET", "v1/me/owntracks", auth: .required)
        return page.items
    }
}
