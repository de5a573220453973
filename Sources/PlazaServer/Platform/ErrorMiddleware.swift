import HTTPTypes
import Hummingbird
import Logging
import PlazaCore

/// Turns every error into an answer a client can act on: `application/problem+json` for the API,
/// an HTML page for browsers. Nothing a client sends reaches a bare 500; the unexpected is logged
/// with the request id and answered as `internal_error`.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods the contract declares for a path, to tell 405 from 404.
    let declaredMethods: @Sendable (String) -> [String]?
    /// The language of a problem: the page's, else the client's `Accept-Language` (see `Catalogue.choose`).
    let words: @Sendable (Request) -> Catalogue.Words
    /// Renders the HTML error page; `nil` means answer JSON.
    let renderPage: @Sendable (PlazaError, Request, Context) -> Response?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            var plazaError = Self.plazaError(for: error, request: request, logger: context.logger)
            if plazaError.status == .notFound, let methods = declaredMethods(request.uri.path),
                !methods.contains(request.method.rawValue)
            {
                // Said in the request's words here: this runs outside the scope that sets the reader's language. The
                // methods are HTTP's own words, the same in every language; "or" is the reader's.
                let reader = words(request)
                plazaError = PlazaError(
                    .methodNotAllowed,
                    .methodNotAllowed,
                    phrase("This method is not allowed here."),
                    detail: methods.count == 1
                        ? reader.say("Use {method}.", ["method": methods[0]])
                        : reader.say(
                            "Use {methods} or {last}.",
                            ["methods": methods.dropLast().joined(separator: ", "), "last": methods.last ?? ""]
                        )
                )
                plazaError.headers[.allow] = methods.joined(separator: ", ")
            }
            if wantsHTML(request), let page = renderPage(plazaError, request, context) { return page }
            let localized =
                plazaError.headers[.contentLanguage] == nil ? plazaError.localized(words(request)) : plazaError
            return localized.problemResponse()
        }
    }

    /// API paths (and pictures: an `<img>` shows no page) get JSON; any other path (a page) gets the HTML page unless the
    /// client asks for JSON.
    func wantsHTML(_ request: Request) -> Bool {
        let path = request.uri.path
        if path.hasPrefix("/v1/") || path == "/v1" || path.hasPrefix("/owntracks") || path.hasPrefix("/passes/v1/")
            || path.hasPrefix("/media/")
            || OperationsAPI.machinePaths.contains(path)
        {
            return false
        }
        let accept = request.headers[.accept] ?? ""
        return accept.contains("text/html")
            || !(accept.contains("application/json") || accept.contains("application/problem+json"))
    }

    static func plazaError(for error: any Error, request: Request, logger: Logger) -> PlazaError {
        switch error {
        case let error as PlazaError:
            return error
        case let error as DecodingError:
            return PlazaError(decoding: error)
        case let error as HTTPError:
            return fromHTTPError(error)
        default:
            if let fault = DatabaseFault.problem(for: error) {
                // The database's fault, not Plaza's: a 503 or 507 the client retries (logged once a second at most).
                logger.warning(
                    "database unavailable",
                    metadata: ["error": "\(DatabaseFault.describe(error))", "path": "\(request.uri.path)"]
                )
                return fault
            }
            logger.error(
                "unexpected error",
                metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"]
            )
            return PlazaError(
                .internalServerError,
                .internalError,
                "Something went wrong on our side.",
                detail: "It has been logged; please try again."
            )
        }
    }

    static func fromHTTPError(_ error: HTTPError) -> PlazaError {
        switch error.status {
        case .notFound: return .notFound("page or endpoint")
        case .methodNotAllowed:
            return PlazaError(.methodNotAllowed, .methodNotAllowed, "This method is not allowed here.")
        case .contentTooLarge: return PlazaError(.contentTooLarge, .payloadTooLarge, "The request body is too large.")
        case .unauthorized: return .unauthorized
        case .forbidden: return .forbidden
        case .unsupportedMediaType:
            return PlazaError(.unsupportedMediaType, .unsupportedMediaType, "Unsupported content type.")
        case .badRequest: return .malformed(error.body ?? "The request could not be read.")
        default:
            if error.status.code >= 500 {
                return PlazaError(error.status, .internalError, "Something went wrong on our side.")
            }
            return PlazaError(error.status, .malformedRequest, error.body ?? "The request could not be handled.")
        }
    }
}
