import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore

/// The cookies of the web app: the session and the CSRF nonce.
enum WebCookies {
    static let session = "plaza_session"
    static let csrf = "plaza_csrf"
    /// Proof of an earlier log-in on this browser (see `AccountService.checkCredentials`), sent only to `/login`.
    static let device = "plaza_device"

    /// The browser that signed up: it is signed in when the address is verified (see `AccountService.signupProof`).
    static let signup = "plaza_signup"

    static func signup(_ value: String, secure: Bool, maxAge: Int) -> Cookie {
        Cookie(
            name: signup,
            value: value,
            maxAge: maxAge,
            path: "/verify-email",
            secure: secure,
            httpOnly: true,
            sameSite: .lax
        )
    }

    static func device(_ value: String, secure: Bool) -> Cookie {
        Cookie(
            name: device,
            value: value,
            maxAge: 365 * 86_400,
            path: "/login",
            secure: secure,
            httpOnly: true,
            sameSite: .strict
        )
    }

    static func session(_ value: String, secure: Bool, maxAge: Int) -> Cookie {
        Cookie(name: session, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    static func expiredSession(secure: Bool) -> Cookie {
        Cookie(name: session, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// The language a visitor chose on the language page (a signed-in person's account setting comes first).
    static let language = "plaza_lang"

    static func language(_ tag: String, secure: Bool) -> Cookie {
        Cookie(
            name: language,
            value: tag,
            maxAge: 365 * 86_400,
            path: "/",
            secure: secure,
            httpOnly: true,
            sameSite: .lax
        )
    }

    static func csrf(_ value: String, secure: Bool) -> Cookie {
        Cookie(name: csrf, value: value, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}

/// Finds the signed-in user of a page request from the session cookie, and prepares the CSRF token that the page's
/// forms carry. A new visitor gets a CSRF nonce cookie on the response. It runs outside the error middleware, so an
/// error page shows the signed-in header too; the API (`/v1`) is left alone.
struct CookieAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService
    let secrets: Secrets
    let secure: Bool
    let catalogue: Catalogue
    var flashes: FlashCookies { FlashCookies(secrets: secrets, secure: secure) }
    /// The navigation's counts for a signed-in reader (see `Badges`); only whole pages that are loaded ask.
    var badges: @Sendable (Identity) async -> Badges? = { _ in nil }
    static let cookieless = OperationsAPI.machinePaths.union(["/sw.js", "/manifest.webmanifest"])

    /// A GET that loads a whole page (with the layout's badges and a refused form's flash): it asks for HTML, and is
    /// neither a file (`Sec-Fetch-Dest` image, script, ...) nor a live fragment, whose fetches say `X-Plaza-Fragment`.
    /// A navigation that the service worker passes on arrives with `Sec-Fetch-Dest: empty` (without navigation
    /// preload), so `empty` is a page too when HTML is asked for.
    static func isPageLoad(_ request: Request) -> Bool {
        guard request.method == .get, request.headers[fragment] == nil,
            request.headers[.accept]?.contains("text/html") == true
        else { return false }
        guard let destination = request.headers[secFetchDest] else { return true }
        return destination == "document" || destination == "empty"
    }

    static let secFetchDest = HTTPField.Name("Sec-Fetch-Dest")!
    /// Sent by the page script with the fetch of a live fragment (see `app.js`).
    static let fragment = HTTPField.Name("X-Plaza-Fragment")!

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        // Neither the API, nor the probes, nor shared, cached files (which must carry no per-visitor cookie).
        guard
            !(path == "/v1" || path.hasPrefix("/v1/") || path.hasPrefix("/static/") || path.hasPrefix("/tiles/")
                || Self.cookieless.contains(path))
        else {
            return try await next(request, context)
        }
        var context = context
        let cookies = request.cookies
        if let token = cookies[WebCookies.session]?.value, !token.isEmpty {
            // A database hiccup here makes the visitor anonymous for one page instead of failing it.
            context.identity = (try? await accounts.identity(cookie: token)) ?? nil
        }
        context.reader = Reader(
            request: request,
            chosenTimeZone: context.identity?.user.timeZone,
            chosenLanguage: context.identity?.user.language,
            catalogue: catalogue
        )
        context.page.path = path
        if let identity = context.identity, Self.isPageLoad(request) { context.page.badges = await badges(identity) }
        let flash =
            Self.isPageLoad(request) ? cookies[FlashCookies.name].flatMap { flashes.read($0.value, path: path) } : nil
        context.page.flash = flash
        let existingNonce = cookies[WebCookies.csrf]?.value.nilIfEmpty
        let nonce = existingNonce ?? Secrets.randomToken(bytes: 16)
        context.csrfToken = CSRF.token(for: nonce, secrets: secrets)
        context.csrfNonce = existingNonce
        var response = try await PageLanguage.$words.withValue(context.reader.words) {
            try await next(request, context)
        }
        response.headers[.contentLanguage] = context.reader.words.tag
        if existingNonce == nil { response.setCookie(WebCookies.csrf(nonce, secure: secure)) }
        if flash != nil { response.setCookie(flashes.cleared(path: path)) }
        return response
    }
}

/// Refuses a page form posted without the CSRF token of the visitor's nonce (see `CookieAuthMiddleware`).
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let secrets: Secrets

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        if request.method == .post {
            if let header = request.headers[CSRF.header] {
                // Scripts of our pages (the browser's location, live lists) send the token as a header.
                try CSRF.check(token: header, nonce: context.csrfNonce, secrets: secrets)
            } else if let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data") {
                // A form with a picture (the card studio's photos): its `_csrf` part, the body buffered for the handler.
                let body = (try? await request.collectBody(upTo: MultipartForm.maximumBytes)).map {
                    Data($0.readableBytesView)
                }
                let token = body.flatMap { MultipartForm($0, contentType: type) }?["_csrf"] ?? ""
                try CSRF.check(token: token, nonce: context.csrfNonce, secrets: secrets)
            } else {
                // Collected here once; the handler reads the same buffered body.
                let body = (try? await request.collectBody(upTo: 1 << 20)).map { String(buffer: $0) } ?? ""
                try CSRF.check(token: FormData(body)["_csrf"], nonce: context.csrfNonce, secrets: secrets)
            }
        }
        return try await next(request, context)
    }
}

/// Synchronizer tokens for forms: the hidden `_csrf` field must be the keyed hash of the visitor's nonce cookie.
enum CSRF {
    static func token(for nonce: String, secrets: Secrets) -> String {
        secrets.hash("csrf:\(nonce)")
    }

    static let header = HTTPField.Name("X-CSRF-Token")!

    static func check(token: String, nonce: String?, secrets: Secrets) throws {
        let failed = PlazaError(
            .forbidden,
            .csrfFailed,
            "This form has expired.",
            detail: "Reload the page and submit it again."
        )
        guard let nonce else { throw failed }
        guard Secrets.constantTimeEquals(token, self.token(for: nonce, secrets: secrets)) else { throw failed }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
