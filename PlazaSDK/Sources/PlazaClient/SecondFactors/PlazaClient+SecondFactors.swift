import Foundation
import PlazaCore

/// Second factors: an authenticator app and recovery codes, asked before money leaves. Money calls that may ask take
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
