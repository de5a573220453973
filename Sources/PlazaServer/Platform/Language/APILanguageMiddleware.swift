import Hummingbird

/// The API's language, chosen as a page's is (issue 41): the signed-in account's `language`, else the best offered
/// match of `Accept-Language`, else the operator's default. Problems are written in it here, where the account is
/// known, and what the services say (`say`, a sentence with values in it) follows it, as on the pages.
struct APILanguageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let catalogue: Catalogue

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let words = catalogue.words(
            catalogue.choose(account: context.identity?.user.language, acceptLanguage: request.headers[.acceptLanguage])
        )
        return try await PageLanguage.$words.withValue(words) {
            do {
                return try await next(request, context)
            } catch let error as PlazaError where error.headers[.contentLanguage] == nil {
                throw error.localized(words)
            }
        }
    }
}
