import Foundation
import Hummingbird
import PlazaCore

/// The password reset: a code mailed to the address, then the code and a new password.
extension AccountsPages {

    /// Anyone: asks for the address to mail a reset code to.
    @Sendable func forgotForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        renderer.render(
            "accounts/forgot-password",
            CodePage(
                shell: Shell(title: say("Forgot your password?"), context: context),
                form: context.page.form("forgot") ?? FormState(names: ["email"])
            )
        )
    }

    /// Anyone: mails a reset code when the address has an account (the same answer either way).
    @Sendable func forgot(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            try await accounts.forgotPassword(email: form["email"], client: context.clientAddress)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "forgot",
                FormState(form, names: ["email"], error: error),
                returnTo: "/forgot-password"
            )
        }
        return PageRenderer.seeOther("/reset-password?email=\(Self.escape(form["email"]))&notice=sent")
    }

    /// Anyone: the code and a new password.
    @Sendable func resetForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = CodePage(
            shell: Shell(
                title: say("Choose a new password"),
                context: context,
                notice: notice(request, context.reader)
            ),
            form: context.page.form("reset")
                ?? FormState(names: ["email", "code", "newPassword"]).with(
                    "email",
                    request.uri.queryParameters.get("email") ?? ""
                )
                .with(
                    "code",
                    request.uri.queryParameters.get("code").map { String($0.filter(\.isNumber).prefix(6)) } ?? ""
                ),
            mailbox: showsMailbox
        )
        return renderer.render("accounts/reset-password", page)
    }

    /// Anyone with a reset code: sets the new password; every session ends.
    @Sendable func reset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            try await accounts.resetPassword(
                ResetPasswordRequest(
                    email: form["email"],
                    code: form["code"].trimmingCharacters(in: .whitespaces),
                    newPassword: form["newPassword"]
                ),
                client: context.clientAddress
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "reset",
                FormState(form, names: ["email", "code", "newPassword"], error: error),
                returnTo: "/reset-password"
            )
        }
        var response = PageRenderer.seeOther("/login?notice=reset")
        response.setCookie(WebCookies.expiredSession(secure: configuration.servesOverTLS))
        return response
    }
}
