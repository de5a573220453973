import HTTPTypes
import Hummingbird

/// Strict headers on every response: no inline script, no framing, no sniffing, no referrer leaks.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let hsts: Bool
    let contentSecurityPolicy: String

    /// `tileOrigin`: the operator's map tile server (`PLAZA_MAP_TILES`), the one other place images may come from.
    /// `formOrigins`: the card processor's hosted pages, where a form's answer may send the browser (Stripe Checkout).
    init(hsts: Bool, tileOrigin: String? = nil, formOrigins: [String] = []) {
        self.hsts = hsts
        contentSecurityPolicy = Self.contentSecurityPolicy(tileOrigin: tileOrigin, formOrigins: formOrigins)
    }

    static func contentSecurityPolicy(tileOrigin: String? = nil, formOrigins: [String] = []) -> String {
        let forms = (["'self'"] + formOrigins).joined(separator: " ")
        return
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:\(tileOrigin.map { " \($0)" } ?? ""); connect-src 'self'; "
            + "font-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action \(forms); frame-ancestors 'none'"
    }

    static var svgPolicy: String {
        "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; img-src 'self' data:; frame-ancestors 'self'"
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        // An SVG Plaza drew (a card's preview) may style its own text and load the card fonts, and nothing else.
        let svg = response.headers[.contentType]?.hasPrefix("image/svg+xml") == true
        response.headers[.contentSecurityPolicy] = svg ? Self.svgPolicy : contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "strict-origin-when-cross-origin"
        response.headers[HTTPField.Name("Permissions-Policy")!] = "camera=(self), geolocation=(self), microphone=()"
        response.headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
        if hsts { response.headers[.strictTransportSecurity] = "max-age=31536000; includeSubDomains" }
        if response.headers[.cacheControl] == nil,
            request.uri.path.hasPrefix("/v1") || request.uri.path.hasPrefix("/dev")
        {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
