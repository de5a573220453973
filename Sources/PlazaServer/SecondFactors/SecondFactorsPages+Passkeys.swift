import Foundation
import Hummingbird
import PlazaCore

/// The security page's passkeys: the page's script asks for options (`passkeys.js`), the browser makes the passkey,
/// and the form posts it here; money forms ask for a challenge to sign in place of a code.
extension SecondFactorsPages {
    func addPasskeyRoutes(to signedIn: RouterGroup<AuthenticatedContext>) {
        signedIn.post("passkeys/options", use: passkeyOptions)
        signedIn.post("passkeys", use: addPasskey)
        signedIn.post("challenge", use: challenge)
    }

    /// JSON for the page's script: options for `navigator.credentials.create()`, with the code of a factor the
    /// account has (form field `secondFactor`); a problem otherwise, whose field error the script puts beside it.
    @Sendable func passkeyOptions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        do {
            return try .json(
                try await SecondFactorAnswer.$current.withValue(form["secondFactor"].nilIfEmpty) {
                    try await secondFactors.passkeyOptions(context.identity)
                }
            )
        } catch let error as PlazaError where error.asksAgain {
            // The script shows the field's words, as the form's own refusal would.
            var problem = error
            problem.errors = Self.stepState(form, error).fields["secondFactor"]?.error.map {
                [FieldError(field: "secondFactor", message: $0)]
            }
            throw problem
        }
    }

    /// Keeps the passkey the browser made; the page then shows what happened (and the recovery codes of a first
    /// factor, once).
    @Sendable func addPasskey(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let added: PasskeyAdded
        do {
            guard
                let credential = try? JSONDecoder().decode(
                    PasskeyRegistration.Credential.self,
                    from: Data(form["credential"].utf8)
                )
            else {
                throw PlazaError.validation(field: "name", phrase("Your browser made no passkey: try again."))
            }
            added = try await secondFactors.addPasskey(
                context.identity,
                PasskeyRegistration(name: form["name"], credential: credential)
            )
        } catch let error as PlazaError where error.status.code < 500 {
            var state = FormState(form, names: ["name"], error: error.asksAgain ? nil : error)
            if error.asksAgain { state.error = say("Your browser's passkey did not check out: try again.") }
            return renderer.refused("passkey", state, returnTo: "/account/security#passkeys")
        }
        return try await render(
            context: context,
            notice: added.recoveryCodes.isEmpty
                ? say("Your passkey “{name}” is set up: payments can ask for it.", ["name": added.factor.name])
                : say(
                    "Your passkey “{name}” is set up. Save your recovery codes now: they are shown only once.",
                    ["name": added.factor.name]
                ),
            codes: added.recoveryCodes
        )
    }

    /// JSON for a money form's "Use your passkey": a challenge for `navigator.credentials.get()`.
    @Sendable func challenge(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await secondFactors.passkeyChallenge(context.identity))
    }
}
