import Foundation
import PlazaCore

/// Second factors: an authenticator app, passkeys and recovery codes, asked before money leaves. Money calls that may ask take
/// `secondFactor:` and throw `PlazaClientError.secondFactorRequired` without it:
///
/// ```swift
/// do {
///     try await plaza.withdraw(request)
/// } catch PlazaClientError.secondFactorRequired(let factors) where !factors.isEmpty {
///     try await plaza.withdraw(request, secondFactor: codeTheUserTyped)
/// }
/// ```
extension PlazaClient {
    /// The account's confirmed factors and how many recovery codes are left.
    public func secondFactors() async throws -> SecondFactorList {
        try await send("GET", "v1/me/second-factors", auth: .required)
    }

    /// Starts setting up an authenticator app: show `otpauthUrl` as a QR code and `secret` as text, then confirm with a
    /// code from the app. An account that has a factor already answers with one (`secondFactor`).
    public func startTOTP(secondFactor: String? = nil) async throws -> TOTPSetup {
        try await send("POST", "v1/me/second-factors/totp", auth: .required, secondFactor: secondFactor)
    }

    /// Confirms the app with the code it shows; the first factor brings 10 recovery codes to show the user once.
    public func confirmTOTP(code: String) async throws -> RecoveryCodes {
        try await send(
            "POST",
            "v1/me/second-factors/totp/confirm",
            body: TOTPConfirmRequest(code: code),
            auth: .required
        )
    }

    /// 10 new recovery codes; the old ones stop working.
    public func newRecoveryCodes(secondFactor: String?) async throws -> RecoveryCodes {
        try await send("POST", "v1/me/second-factors/recovery-codes", auth: .required, secondFactor: secondFactor)
    }

    /// Options to make a passkey, for `ASAuthorizationPlatformPublicKeyCredentialProvider` (challenge, relying party,
    /// user id) or a browser's `navigator.credentials.create()`. An account that has a factor answers with one.
    public func passkeyRegistrationOptions(secondFactor: String? = nil) async throws -> PasskeyRegistrationOptions {
        try await send("POST", "v1/me/second-factors/passkeys/options", auth: .required, secondFactor: secondFactor)
    }

    /// Keeps the passkey the authenticator made; the first factor brings recovery codes to show once.
    public func addPasskey(_ registration: PasskeyRegistration) async throws -> PasskeyAdded {
        try await send("POST", "v1/me/second-factors/passkeys", body: registration, auth: .required)
    }

    /// A challenge for the account's passkeys to sign. Answer `secondFactorRequired` with the signed proof's
    /// `PasskeyAssertion.answer` as `secondFactor:`.
    public func passkeyChallenge() async throws -> PasskeyRequestOptions {
        try await send("POST", "v1/me/second-factors/challenge", auth: .required)
    }

    /// Removes a factor; removing one asks for a second factor too.
    public func deleteSecondFactor(id: UUID, secondFactor: String?) async throws {
        try await sendVoid(
            "DELETE",
            "v1/me/second-factors/\(id.uuidString.lowercased())",
            auth: .required,
            secondFactor: secondFactor
        )
    }
}
