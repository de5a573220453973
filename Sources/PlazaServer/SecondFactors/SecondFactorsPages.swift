import Foundation
import Hummingbird
import PlazaCore
import PlazaMedia

/// `/account/security`: the authenticator app and passkeys asked before money leaves, recovery codes, and removing
/// them.
struct SecondFactorsPages: Sendable {
    let secondFactors: SecondFactorService
    let renderer: PageRenderer
    let maxBody: Int

    static let notices: [String: String] = [
        "started": phrase("Scan the QR code with your authenticator app, then type the code it shows."),
        "removed": phrase("The second factor was removed."),
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        let signedIn = pages.group("account/security", context: AuthenticatedContext.self)
        signedIn.get("", use: page)
        signedIn.post("totp", use: start)
        signedIn.post("totp/confirm", use: confirm)
        signedIn.post("recovery-codes", use: newCodes)
        signedIn.post(":id/remove", use: remove)
        addPasskeyRoutes(to: signedIn)
    }

    struct Row: Sendable {
        var id: String
        var name: String
        var added: String
        var lastUsed: String?
    }

    /// The app being set up: its QR code (markup made by `QRCode` from Plaza's own `otpauth://` address, never user
    /// text) and the secret as text to type, in groups of four.
    struct Setup: Sendable {
        var qr: String
        var secret: String
    }

    struct Page: Sendable {
        var shell: Shell
        var factors: [Row]
        var hasFactors: Bool
        var recoveryCodesLeft: Int
        var setup: Setup?
        /// Shown once, right after they were made.
        var recoveryCodes: [String]
        var codesText: String
        var showCodes: Bool
        var startForm: FormState
        var confirmForm: FormState
        var codesForm: FormState
        var removeForm: FormState
        var passkeyForm: FormState
        var hasApp: Bool
        var hasPasskey: Bool
        /// Where passkeys work: Plaza's host.
        var rpId: String
    }

    @Sendable func page(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let notice = request.uri.queryParameters.get("notice").flatMap { Self.notices[$0] }.map { say($0) }
        return try await render(context: context, notice: notice)
    }

    func render(context: AuthenticatedContext, notice: String? = nil, codes: [String] = []) async throws -> Response {
        let list = try await secondFactors.list(context.identity)
        let pending = try await secondFactors.pendingTOTP(context.identity)
        let refused = context.page
        let page = Page(
            shell: Shell(title: say("Security"), context: context, notice: notice),
            factors: list.items.map {
                Row(
                    id: $0.id.uuidString.lowercased(),
                    name: $0.kind == .totp ? say("Authenticator app") : say("Passkey: {name}", ["name": $0.name]),
                    added: context.reader.when($0.createdAt),
                    lastUsed: $0.lastUsedAt.map { context.reader.when($0) }
                )
            },
            hasFactors: !list.items.isEmpty,
            recoveryCodesLeft: list.recoveryCodesLeft,
            setup: pending.map { setup in
                Setup(
                    qr: QRCode(setup.otpauthUrl)?.svg(scale: 4) ?? "",
                    secret: stride(from: 0, to: setup.secret.count, by: 4).map { offset in
                        String(setup.secret.dropFirst(offset).prefix(4))
                    }.joined(separator: " ")
                )
            },
            recoveryCodes: codes,
            codesText: codes.joined(separator: "\n"),
            showCodes: !codes.isEmpty,
            startForm: refused.form("start") ?? FormState(),
            confirmForm: refused.form("confirm") ?? FormState(names: ["code"]),
            codesForm: refused.form("codes") ?? FormState(),
            removeForm: refused.form("remove") ?? FormState(),
            passkeyForm: refused.form("passkey") ?? FormState(names: ["name"]),
            hasApp: list.items.contains { $0.kind == .totp },
            hasPasskey: list.items.contains { $0.kind == .passkey },
            rpId: secondFactors.relyingParty.id
        )
        return renderer.render("secondfactors/security", page)
    }

    /// A new app's secret, shown on the page until it is confirmed.
    @Sendable func start(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        do {
            _ = try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                try await secondFactors.startTOTP(context.identity)
            }
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused("start", FormState(form, error: error), returnTo: "/account/security#setup")
        }
        return PageRenderer.seeOther("/account/security?notice=started#setup")
    }

    /// Confirms the app with its code; the page then shows the recovery codes, once.
    @Sendable func confirm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let codes: RecoveryCodes
        do {
            codes = try await secondFactors.confirmTOTP(context.identity, TOTPConfirmRequest(code: form["code"]))
        } catch let error as PlazaError where error.status.code < 500 {
            var state = FormState(form, names: ["code"])
            state.fields["code"]?.error =
                error.code == .invalidCode
                ? say("That code did not work: type the one your app shows now.") : error.sentence
            return renderer.refused("confirm", state, returnTo: "/account/security#setup")
        }
        return try await render(
            context: context,
            notice: codes.recoveryCodes.isEmpty
                ? say("Your authenticator app is set up. Your recovery codes stay as they were.")
                : say("Your authenticator app is set up. Save your recovery codes now: they are shown only once."),
            codes: codes.recoveryCodes
        )
    }

    /// 10 new recovery codes (with a code from the app), shown once.
    @Sendable func newCodes(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        do {
            let codes = try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                try await secondFactors.newRecoveryCodes(context.identity)
            }
            return try await render(
                context: context,
                notice: say("New recovery codes: the old ones no longer work. Save these now."),
                codes: codes.recoveryCodes
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused("codes", Self.stepState(form, error), returnTo: "/account/security#recovery")
        }
    }

    /// Removes a factor (with a code from the app).
    @Sendable func remove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await request.decodeForm(limit: maxBody)
        let id = try Query.id(context.parameters, "id", "second factor")
        do {
            try await SecondFactorAnswer.$current.withValue(form["secondFactor"]) {
                try await secondFactors.delete(context.identity, id: id)
            }
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused("remove", Self.stepState(form, error), returnTo: "/account/security#factors")
        }
        return PageRenderer.seeOther("/account/security?notice=removed")
    }

    /// A refused form whose code field is always shown: the error beside it.
    static func stepState(_ form: FormData, _ error: PlazaError) -> FormState {
        var state = FormState()
        state.fields["secondFactor"] = .init(
            error: error.code == .secondFactorRequired
                ? say("Type the code your authenticator app shows.") : error.sentence
        )
        return state
    }
}
