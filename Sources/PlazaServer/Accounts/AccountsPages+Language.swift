import Foundation
import Hummingbird
import PlazaCore

/// The language switch (footer → Language): every offered language, each named in itself. A visitor's choice is kept
/// in a cookie; a signed-in person's is their account's `language` too, so their mails and pushes follow it.
extension AccountsPages {
    struct LanguagePage: Sendable {
        struct Choice: Sendable {
            var tag: String
            var name: String
            var dir: String
            var current: Bool
        }
        var shell: Shell
        var languages: [Choice]
    }

    @Sendable func languagePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let current = context.reader.words.tag
        let page = LanguagePage(
            shell: Shell(
                title: context.reader.words("language.title"),
                context: context,
                notice: notice(request, context.reader)
            ),
            languages: catalogue.languages.map {
                LanguagePage.Choice(tag: $0.tag, name: $0.name, dir: $0.dir, current: $0.tag == current)
            }
        )
        return renderer.render("accounts/language", page)
    }

    @Sendable func chooseLanguage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(limit: limit)
        guard let tag = catalogue.languages.first(where: { $0.tag.lowercased() == form["language"].lowercased() })?.tag
        else {
            return PageRenderer.seeOther("/language")
        }
        if let identity = context.identity {
            _ = try await accounts.updateProfile(identity, ProfileUpdate(language: tag))
        }
        var response = PageRenderer.seeOther("/language?notice=language")
        response.setCookie(WebCookies.language(tag, secure: configuration.servesOverTLS))
        return response
    }
}
