import Foundation
import Hummingbird
import PlazaCore

/// The accounts pages: sign up, verify, log in and out, reset the password, and the account page.
/// Each form posts to its own path; a refusal goes back to the form's page, which shows each problem by its field.
struct AccountsPages: Sendable {
    let accounts: AccountService
    let renderer: PageRenderer
    let configuration: PlazaConfiguration
    let campusDirectory: any CampusDirectory
    let catalogue: Catalogue

    /// Confirmations shown after a redirect, by their catalogue key (`accounts.notice.<code>`); only these fixed
    /// texts, never text from the URL.
    static let notices: Set<String> = [
        "verified", "sent", "reset", "profile", "password", "revoked", "deleted", "loggedout", "welcome",
        "app-password-deleted", "language",
    ]

    func addRoutes(to pages: RouterGroup<AppRequestContext>) {
        pages.get("signup", use: signupForm)
        pages.post("signup", use: signup)
        pages.get("verify-email", use: verifyForm)
        pages.post("verify-email", use: verify)
        pages.post("verify-email/resend", use: resend)
        pages.get("login", use: loginForm)
        pages.post("login", use: login)
        pages.post("logout", use: logout)
        pages.get("forgot-password", use: forgotForm)
        pages.post("forgot-password", use: forgot)
        pages.get("reset-password", use: resetForm)
        pages.post("reset-password", use: reset)
        pages.get("language", use: languagePage)
        pages.post("language", use: chooseLanguage)
        let account = pages.group("account", context: AuthenticatedContext.self)
        account.get(use: accountPage)
        account.post("profile", use: saveProfile)
        account.post("password", use: changePassword)
        account.post("email", use: changeEmail)
        account.post("sessions/:id/revoke", use: revokeSession)
        account.post("app-passwords", use: createAppPassword)
        account.post("app-passwords/:id/delete", use: deleteAppPassword)
        account.post("delete", use: deleteAccount)
    }

    var limit: Int { configuration.limits.maxRequestBody }

    func notice(_ request: Request, _ reader: Reader) -> String? {
        request.uri.queryParameters.get("notice").flatMap { Self.notices.contains($0) ? $0 : nil }.map {
            reader.words("accounts.notice.\($0)")
        }
    }

    // MARK: Sign up

    struct SignupPage: Sendable {
        var shell: Shell
        var form: FormState
        var merchant: Bool
        var student: Bool
        var genders: [Option]
        /// The operator's universities: a student picks theirs and is walked into the marketplace after verifying.
        var campuses: [Option]
        var hasCampuses: Bool
        /// One of the campuses is picked (else "I am not a student here" is).
        var campusPicked: Bool
    }

    struct Option: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    static let signupFields = [
        "email", "username", "displayName", "password", "role", "birthDate", "gender", "student", "campus",
    ]

    static func genderOptions(selected: String?, words: Catalogue.Words) -> [Option] {
        ["", "female", "male", "other"].map {
            Option(
                value: $0,
                label: words("accounts.gender.\($0.isEmpty ? "none" : $0)"),
                selected: $0 == (selected ?? "")
            )
        }
    }

    /// Anyone: the sign-up form.
    @Sendable func signupForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = context.page.form("signup") ?? FormState(names: Self.signupFields)
        let typed = { (name: String) in form.fields[name]?.value ?? "" }
        let campuses = try await campusDirectory.campuses()
        let picked = typed("campus").isEmpty ? request.uri.queryParameters.get("campus") ?? "" : typed("campus")
        return renderer.render(
            "accounts/signup",
            SignupPage(
                shell: Shell(title: say("Sign up"), context: context),
                form: form,
                merchant: typed("role") == "merchant",
                student: typed("student") == "on",
                genders: Self.genderOptions(selected: typed("gender"), words: context.reader.words),
                campuses: campuses.map {
                    Option(
                        value: $0.id.uuidString.lowercased(),
                        label: $0.name,
                        selected: $0.id.uuidString.lowercased() == picked
                    )
                },
                hasCampuses: !campuses.isEmpty,
                campusPicked: campuses.contains { $0.id.uuidString.lowercased() == picked }
            )
        )
    }

    /// The campus picked at sign-up, when it is one of the operator's: the marketplace is the student's next step.
    private func pickedCampus(_ value: String) async throws -> UUID? {
        guard let id = UUID(uuidString: value) else { return nil }
        return try await campusDirectory.campuses().contains { $0.id == id } ? id : nil
    }

    /// Anyone: creates the account, then asks for the mailed code.
    @Sendable func signup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let registration = RegisterRequest(
            email: form["email"],
            username: form["username"],
            displayName: form["displayName"],
            password: form["password"],
            role: form["role"] == "merchant" ? .merchant : .customer,
            birthDate: form.optional("birthDate"),
            gender: form.optional("gender").flatMap(Gender.init(rawValue:)),
            student: form["student"] == "on" || !form["campus"].isEmpty,
            // The page's language (a hidden field): the account keeps it, for its mails and pages.
            language: form.optional("language").flatMap { catalogue.offers($0) ? $0 : nil }
        )
        let user: User
        do {
            user = try await accounts.register(registration, client: context.clientAddress)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "signup",
                FormState(form, names: Self.signupFields, error: error),
                returnTo: "/signup"
            )
        }
        let campus = registration.role == .customer ? try await pickedCampus(form["campus"]) : nil
        var response = PageRenderer.seeOther(
            "/verify-email?email=\(Self.escape(AccountRules.normalizedEmail(registration.email)))&notice=sent"
                + (campus.map { "&campus=\($0.uuidString.lowercased())" } ?? "")
        )
        response.setCookie(
            WebCookies.signup(
                accounts.signupProof(for: user.id),
                secure: configuration.servesOverTLS,
                maxAge: Int(AccountService.signupProofLifetime)
            )
        )
        return response
    }

    // MARK: Verify e-mail

    struct CodePage: Sendable {
        var shell: Shell
        var form: FormState
        /// Demo and dev mode send no mail: the page points to the dev mailbox.
        var mailbox: Bool = false
        /// The mail's link brought the code: one tap verifies.
        var fromLink: Bool = false
        /// The university picked at sign-up, carried to the marketplace after verifying.
        var campus: String = ""
    }

    var showsMailbox: Bool { configuration.mode != .production }

    /// Anyone: the form for the mailed code, with a button for a new one. The mail's link fills in address and code,
    /// so one tap verifies (a tap, not the link itself: mail scanners open links).
    @Sendable func verifyForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let email = query.get("email") ?? context.identity?.user.email ?? ""
        let code = query.get("code").map { String($0.filter(\.isNumber).prefix(6)) } ?? ""
        let page = CodePage(
            shell: Shell(title: say("Verify your e-mail"), context: context, notice: notice(request, context.reader)),
            form: context.page.form("verify")
                ?? FormState(names: ["email", "code"]).with("email", email).with("code", code),
            mailbox: showsMailbox,
            fromLink: code.count == 6,
            campus: query.get("campus").flatMap(UUID.init(uuidString:))?.uuidString.lowercased() ?? ""
        )
        return renderer.render("accounts/verify-email", page)
    }

    /// Anyone with the code: marks the address verified.
    @Sendable func verify(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let user: User
        do {
            user = try await accounts.verifyEmail(
                VerifyEmailRequest(email: form["email"], code: form["code"].trimmingCharacters(in: .whitespaces)),
                client: context.clientAddress
            )
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "verify",
                FormState(form, names: ["email", "code"], error: error),
                returnTo: "/verify-email" + (form["campus"].isEmpty ? "" : "?campus=\(Self.escape(form["campus"]))")
            )
        }
        // A merchant's next step is their first business; a student's who picked their university, the marketplace's
        // campus step; everyone else's, the home screen.
        let campus = try await pickedCampus(form["campus"])
        let next =
            user.role == .merchant
            ? "/places/new" : campus.map { "/market?campus=\($0.uuidString.lowercased())" } ?? "/?notice=welcome"
        if context.identity?.user.id == user.id { return PageRenderer.seeOther(next) }
        guard
            let session = try await accounts.sessionAfterVerification(
                user,
                proof: request.cookies[WebCookies.signup]?.value,
                userAgent: request.headers[.userAgent]
            )
        else { return PageRenderer.seeOther("/login?notice=verified") }
        var response = PageRenderer.seeOther(next)
        response.setCookie(
            WebCookies.session(
                session,
                secure: configuration.servesOverTLS,
                maxAge: Int(configuration.limits.sessionLifetime)
            )
        )
        response.setCookie(WebCookies.signup("", secure: configuration.servesOverTLS, maxAge: 0))
        return response
    }

    /// Anyone: mails a new code (the answer is the same whether or not the address has an account).
    @Sendable func resend(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        do {
            try await accounts.resendCode(email: form["email"], client: context.clientAddress)
        } catch let error as PlazaError where error.status.code < 500 {
            return renderer.refused(
                "verify",
                FormState(form, names: ["email", "code"], error: error),
                returnTo: "/verify-email"
            )
        }
        return PageRenderer.seeOther("/verify-email?email=\(Self.escape(form["email"]))&notice=sent")
    }

    // MARK: Log in and out

    struct LoginPage: Sendable {
        var shell: Shell
        var form: FormState
        var next: String
    }

    /// Anyone: the log-in form.
    @Sendable func loginForm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let next = Self.safeNext(request.uri.queryParameters.get("next"))
        if context.identity != nil { return PageRenderer.seeOther(next) }
        let page = LoginPage(
            shell: Shell(title: say("Log in"), context: context, notice: notice(request, context.reader)),
            form: context.page.form("login") ?? FormState(names: ["login", "password"]),
            next: next
        )
        return renderer.render("accounts/login", page)
    }

    /// Anyone: checks the password and starts a cookie session.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        let next = Self.safeNext(form["next"])
        let token: (session: String, device: String)
        do {
            token = try await accounts.webLogin(
                login: form["login"],
                password: form["password"],
                client: context.clientAddress,
                userAgent: request.headers[.userAgent],
                deviceToken: request.cookies[WebCookies.device]?.value
            )
        } catch let error as PlazaError where error.status.code < 500 {
            let back = next == "/" ? "/login" : "/login?next=\(Self.escape(next))"
            return renderer.refused(
                "login",
                FormState(form, names: ["login", "password"], error: error),
                returnTo: back
            )
        }
        var response = PageRenderer.seeOther(next)
        response.setCookie(
            WebCookies.session(
                token.session,
                secure: configuration.servesOverTLS,
                maxAge: Int(configuration.limits.sessionLifetime)
            )
        )
        response.setCookie(WebCookies.device(token.device, secure: configuration.servesOverTLS))
        return response
    }

    /// Ends the browser's session.
    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let identity = context.identity { try await accounts.logout(identity) }
        var response = PageRenderer.seeOther("/login?notice=loggedout")
        response.setCookie(WebCookies.expiredSession(secure: configuration.servesOverTLS))
        return response
    }

    // MARK: Helpers

    /// Only paths of this origin: `next` must never send the user to another site. Browsers drop TAB, CR and LF from a
    /// URL and read `\` as `/` (WHATWG URL), so `/<TAB>/evil.example` or `/\evil.example` would leave; any control
    /// character, space or backslash is refused outright, and what is left must parse as a path with no scheme or host.
    static func safeNext(_ next: String?) -> String {
        let fallback = "/"
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"),
            !next.unicodeScalars.contains(where: {
                $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" || (0x80...0x9F).contains($0.value)
            }),
            let parsed = URLComponents(string: next), parsed.scheme == nil, parsed.host == nil,
            parsed.path.hasPrefix("/")
        else { return fallback }
        return next
    }

    static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~@")))
            ?? ""
    }
}
