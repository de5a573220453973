import Foundation
import Mustache
import Synchronization

/// The Mustache templates under `Resources/Templates`, loaded and parsed once at start-up for every language, so a
/// broken template or a word missing from the catalogue stops the server instead of a page.
///
/// A template writes its words as `[[key]]`, a key of the message catalogue; loading puts each language's text in,
/// escaped for HTML, its `{value}`s turned into the Mustache variables of the same name (`[[wallet.sent]]` with
/// `"You sent {amount}"` reads `{{amount}}` from the page's model).
enum Templates {
    static let required = [
        "layout", "home", "home-signed-in", "home-live", "wallet/actions", "error", "docs/api", "dev/mailbox",
        "accounts/signup",
        "accounts/verify-email", "accounts/login",
        "accounts/forgot-password", "accounts/reset-password", "accounts/account", "places/nearby", "places/map",
        "places/business",
        "places/settings", "places/map-head", "businesses/mine", "businesses/new", "businesses/edit", "places/presence",
        "wallet/wallet", "wallet/send",
        "wallet/send-review",
        "wallet/request",
        "wallet/add-money", "wallet/withdraw", "wallet/activity",
        "wallet/activity-status", "wallet/avatar", "wallet/charges", "wallet/charges-list",
        "wallet/receipt", "wallet/counter", "wallet/counter-live", "inbox/inbox", "inbox/inbox-list", "offers/offers",
        "offers/offers-list",
        "offers/offer", "offers/settings", "offers/campaigns", "offers/campaign", "offers/campaign-editor",
        "offers/offer-card", "secondfactors/step", "secondfactors/security",
    ]

    /// A resource file the build did not ship; Plaza cannot start without it.
    struct MissingTemplate: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) is missing from the resources" }
    }

    /// A `[[key]]` that the catalogue does not have.
    struct UnknownWord: Error, CustomStringConvertible {
        let template: String
        let key: String
        var description: String { "\(template).mustache: [[\(key)]] is not in Messages/en.json" }
    }

    /// The templates' sources by name (`wallet/actions`).
    static func sources() throws -> [String: String] {
        guard
            let directory = Bundle.module.url(forResource: "Templates", withExtension: nil, subdirectory: "Resources")
        else {
            throw MissingTemplate(name: "Templates/")
        }
        var sources: [String: String] = [:]
        let root = directory.standardizedFileURL.path
        let files = FileManager.default.enumerator(atPath: root)
        while let file = files?.nextObject() as? String {
            guard file.hasSuffix(".mustache") else { continue }
            sources[String(file.dropLast(".mustache".count))] = try String(
                contentsOfFile: root + "/" + file,
                encoding: .utf8
            )
        }
        return sources
    }

    static func load(catalogue: Catalogue) async throws -> LocalizedTemplates {
        let sources = try sources()
        for name in required where sources[name] == nil {
            throw MissingTemplate(name: "\(name).mustache")
        }
        let english = catalogue.words(Catalogue.english)
        for (name, source) in sources {
            if let missing = keys(in: source).first(where: { !$0.hasPrefix("@") && !english.has($0) }) {
                throw UnknownWord(template: name, key: missing)
            }
        }
        var libraries: [String: MustacheLibrary] = [:]
        for language in catalogue.languages {
            if let known = parsed.withLock({ $0[language.tag] }) {
                libraries[language.tag] = known
                continue
            }
            let words = catalogue.words(language.tag)
            var library = MustacheLibrary()
            for (name, source) in sources {
                try library.register(translate(source, words), named: name)
            }
            libraries[language.tag] = library
            parsed.withLock { $0[language.tag] = library }
        }
        return LocalizedTemplates(libraries: libraries, defaultTag: catalogue.defaultTag)
    }

    /// Each language's templates, parsed once per process: the shipped files do not change while it runs, and every
    /// `PlazaServices` of the process (the tests open hundreds at once) shares them.
    private static let parsed = Mutex<[String: MustacheLibrary]>([:])

    /// The `[[key]]`s of a template.
    static func keys(in source: String) -> [String] {
        source.matches(of: marker).map { String($0.output.1) }
    }

    nonisolated(unsafe) static let marker = /\[\[(@?[A-Za-z0-9_.\-]+)\]\]/
    nonisolated(unsafe) static let value = /\{([A-Za-z0-9_.]+)\}/

    /// The template with each `[[key]]` in `words`' language.
    static func translate(_ source: String, _ words: Catalogue.Words) -> String {
        source.replacing(marker) { match in
            switch match.output.1 {
            case "@tag": words.tag
            case "@dir": words.language.dir
            case "@js": scriptWords(words)
            case let key: escape(words(String(key))).replacing(value) { "{{\($0.output.1)}}" }
            }
        }
    }

    /// The `js.` texts of `words` as a JSON object for the page scripts (`<script type="application/json">`, read by
    /// `plazaSay` in app.js), with `</` written so that no text can close the script element. A plural is its forms
    /// by CLDR category, which `plazaSay` picks from with `Intl.PluralRules`.
    static func scriptWords(_ words: Catalogue.Words) -> String {
        var object: [String: Any] = [:]
        for key in words.keys(prefix: "js.") { object[String(key.dropFirst(3))] = words.forms(key) ?? words(key) }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// The templates in each offered language; a page renders in its reader's (`PageLanguage.words`).
struct LocalizedTemplates: Sendable {
    let libraries: [String: MustacheLibrary]
    let defaultTag: String

    func library(_ tag: String?) -> MustacheLibrary {
        tag.flatMap { libraries[$0] } ?? libraries[defaultTag]!
    }

    func render(_ model: Any, withTemplate name: String, language: String? = PageLanguage.words?.tag) -> String? {
        library(language).render(model, withTemplate: name)
    }
}

/// The words of the page being answered, set once per page request by `CookieAuthMiddleware` from the reader, so that
/// the renderer and the pages' problems need no argument at their hundred call sites.
enum PageLanguage {
    @TaskLocal static var words: Catalogue.Words?

    /// An English sentence of the Swift code (a problem's title, a field's message) in the page's language.
    static func say(_ english: String) -> String { words?.say(english) ?? english }
}
