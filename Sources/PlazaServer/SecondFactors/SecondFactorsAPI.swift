import Foundation
import Hummingbird
import PlazaCore

/// `/v1/me/second-factors*` of `openapi.yaml`: authenticator apps, passkeys and recovery codes asked before money
/// leaves.
struct SecondFactorsAPI: Sendable {
    let secondFactors: SecondFactorService
    let maxBody: Int

    func addRoutes(to authenticated: RouterGroup<AuthenticatedContext>) {
        authenticated.get("me/second-factors", use: list)
        authenticated.post("me/second-factors/totp", use: startTOTP)
        authenticated.post("me/second-factors/totp/confirm", use: confirmTOTP)
        authenticated.post("me/second-factors/recovery-codes", use: newRecoveryCodes)
        authenticated.post("me/second-factors/passkeys/options", use: passkeyOptions)
        authenticated.post("me/second-factors/passkeys", use: addPasskey)
        authenticated.post("me/second-factors/challenge", use: passkeyChallenge)
        authenticated.delete("me/second-factors/:id", use: delete)
    }

    /// Signed in: the confirmed factors and how many recovery codes are left.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await secondFactors.list(context.identity))
    }

    /// Signed in: a new authenticator app's secret, unconfirmed until a code from it comes back.
    @Sendable func startTOTP(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await secondFactors.startTOTP(context.identity), status: .created)
    }

    /// Signed in: confirms the app with a code it shows; the first factor brings recovery codes.
    @Sendable func confirmTOTP(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: TOTPConfirmRequest.self, limit: maxBody)
        return try .json(try await secondFactors.confirmTOTP(context.identity, body))
    }

    /// Signed in, with a second factor: 10 new recovery codes in place of the old ones.
    @Sendable func newRecoveryCodes(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await secondFactors.newRecoveryCodes(context.identity), status: .created)
    }

    /// Signed in (with a second factor if the account has one): options for `navigator.credentials.create()`.
    @Sendable func passkeyOptions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await secondFactors.passkeyOptions(context.identity))
    }

    /// Signed in: keeps the passkey made from those options; the first factor brings recovery codes.
    @Sendable func addPasskey(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(as: PasskeyRegistration.self, limit: maxBody)
        return try .json(try await secondFactors.addPasskey(context.identity, body), status: .created)
    }

    /// Signed in, with a passkey: a challenge to sign, answering `second_factor_required`.
    @Sendable func passkeyChallenge(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await secondFactors.passkeyChallenge(context.identity))
    }

    /// Signed in, with a second factor: removes one.
    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await secondFactors.delete(context.identity, id: try Query.id(context.parameters, "id", "second factor"))
        return .noContent
    }
}
