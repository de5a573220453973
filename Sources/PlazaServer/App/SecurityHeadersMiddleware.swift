import HTTPTypes
import Hummingbird

/// Strict headers on every response: no inline script, no framing, no sniffing, no referrer leaks.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The fields of every response but an SVG's, and of an SVG's: made (and checked) once, not per response.
    let fields: [HTTPField]
    let svgFields: [HTTPField]

    /// `tileOrigin`: the operator's map tile server (`PLAZA_MAP_TILES`), the one other place images may come from.
    /// `formOrigins`: the card processor's hosted pages, where a form's answer may send the browser (Stripe Checkout).
    init(hsts: Bool, tileOrigin: String? = nil, formOrigins: [String] = []) {
        var common = [
            HTTPField(name: .xContentTypeOptions, value: "nosniff"),
            HTTPField(name: HTTPField.Name("X-Frame-Options")!, value: "DENY"),
            HTTPField(name: HTTPField.Name("Referrer-Policy")!, value: "strict-origin-when-cross-origin"),
            HTTPField(
                name: HTTPField.Name("Permissions-Policy")!,
                value: "camera=(self), geolocation=(self), microphone=()"
            ),
            HTTPField(name: HTTPField.Name("Cross-Origin-Opener-Policy")!, value: "same-origin"),
        ]
        if hsts {
            common.append(HTTPField(name: .strictTransportSecurity, value: "max-age=31536000; includeSubDomains"))
        }
        let policy = Self.contentSecurityPolicy(tileOrigin: tileOrigin, formOrigins: formOrigins)
        fields = [HTTPField(name: .contentSecurityPolicy, value: policy)] + common
        svgFields = [HTTPField(name: .contentSecurityPolicy, value: Self.svgPolicy)] + common
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
        for field in svg ? svgFields : fields {
            if response.headers.contains(field.name) { response.headers[field.name] = nil }
            response.headers.append(field)
        }
        if response.headers[.cacheControl] == nil,
            request.uri.path.hasPrefix("/v1") || request.uri.path.hasPrefix("/dev")
        {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
