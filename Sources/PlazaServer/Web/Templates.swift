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
        "layout", "home", "home-signed-in", "home-live", "wallet/actions", "error", "docs/api", "docs/api-section",
        "dev/mailbox",
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

    /// The templates for every language of `catalogue`, each language parsed when it is first needed (`warm()` parses
    /// them all once the server listens), so that a start does not wait for the ~470 templates of four languages. The
    /// files and their words are checked here: a missing template or an unknown `[[key]]` stops the start.
    static func load(catalogue: Catalogue) throws -> LocalizedTemplates {
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
        let languages = catalogue.languages.map { language in
            parsed.withLock { known in
                if let shared = known[language.tag] { return shared }
                let lazy = LazyLibrary(sources: sources, words: catalogue.words(language.tag))
                known[language.tag] = lazy
                return lazy
            }
        }
        return LocalizedTemplates(
            libraries: Dictionary(uniqueKeysWithValues: zip(catalogue.languages.map(\.tag), languages)),
            defaultTag: catalogue.defaultTag
        )
    }

    /// Each language's templates, parsed once per process: the shipped files do not change while it runs, and every
    /// `PlazaServices` of the process (the tests open hundreds at once) shares them.
    private static let parsed = Mutex<[String: LazyLibrary]>([:])

    /// One language's templates, parsed by the first caller; the others wait for that parse.
    final class LazyLibrary: Sendable {
        private let state: Mutex<State>

        private enum State {
            case unparsed(sources: [String: String], words: Catalogue.Words)
            case parsed(MustacheLibrary)
            case failed(String)
        }

        init(sources: [String: String], words: Catalogue.Words) {
            state = Mutex(.unparsed(sources: sources, words: words))
        }

        /// The parsed library; throws what Mustache said of a template this language's words broke.
        func library() throws -> MustacheLibrary {
            try state.withLock { state in
                switch state {
                case .parsed(let library): return library
                case .failed(let reason): throw BrokenTemplate(reason: reason)
                case .unparsed(let sources, let words):
                    do {
                        var library = MustacheLibrary()
                        for (name, source) in sources {
                            do {
                                try library.register(translate(source, words), named: name)
                            } catch {
                                throw BrokenTemplate(reason: "\(name).mustache in \(words.tag): \(error)")
                            }
                        }
                        state = .parsed(library)
                        return library
                    } catch let broken as BrokenTemplate {
                        state = .failed(broken.reason)
                        throw broken
                    }
                }
            }
        }
    }

    /// A template that Mustache cannot parse once a language's words are in it.
    struct BrokenTemplate: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// The `[[key]]`s of a template.
    static func keys(in source: String) -> [String] {
        markers(in: source).map { String(source[$0].dropFirst(2).dropLast(2)) }
    }

    /// Where each `[[key]]` of `text` is: two brackets, an optional `@`, letters, digits, `_`, `.` or `-`, two brackets.
    /// A scan of the bytes (a `Regex` here took a fifth of a start).
    static func markers(in text: String) -> [Range<String.Index>] {
        let bytes = text.utf8
        var found: [Range<String.Index>] = []
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "[")) {
            index = bytes.index(after: open)
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "[") else { continue }
            var end = bytes.index(after: index)
            if end < bytes.endIndex, bytes[end] == UInt8(ascii: "@") { end = bytes.index(after: end) }
            let nameStart = end
            while end < bytes.endIndex, isKeyByte(bytes[end], dash: true) { end = bytes.index(after: end) }
            guard end > nameStart, bytes[end...].starts(with: "]]".utf8) else { continue }
            let close = bytes.index(end, offsetBy: 2)
            found.append(open..<close)
            index = close
        }
        return found
    }

    /// `{name}`s of a catalogue text as Mustache variables (`{{name}}`): letters, digits, `_` and `.` in braces.
    static func mustacheValues(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        let bytes = text.utf8
        var result = ""
        var copied = bytes.startIndex
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "{")) {
            var end = bytes.index(after: open)
            while end < bytes.endIndex, isKeyByte(bytes[end], dash: false) { end = bytes.index(after: end) }
            guard end > bytes.index(after: open), end < bytes.endIndex, bytes[end] == UInt8(ascii: "}") else {
                index = bytes.index(after: open)
                continue
            }
            result += text[copied..<open]
            result += "{{" + text[bytes.index(after: open)..<end] + "}}"
            copied = bytes.index(after: end)
            index = copied
        }
        result += text[copied...]
        return result
    }

    private static func isKeyByte(_ byte: UInt8, dash: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        case UInt8(ascii: "-"): dash
        default: false
        }
    }

    /// The template with each `[[key]]` in `words`' language.
    static func translate(_ source: String, _ words: Catalogue.Words) -> String {
        var result = ""
        result.reserveCapacity(source.utf8.count)
        var copied = source.startIndex
        for marker in markers(in: source) {
            result += source[copied..<marker.lowerBound]
            switch source[marker].dropFirst(2).dropLast(2) {
            case "@tag": result += words.tag
            case "@dir": result += words.language.dir
            case "@js": result += scriptWords(words)
            case let key: result += mustacheValues(escape(words(String(key))))
            }
            copied = marker.upperBound
        }
        result += source[copied...]
        return result
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
    let libraries: [String: Templates.LazyLibrary]
    let defaultTag: String

    /// The library of `tag` (the default language's for an unknown tag, or if `tag`'s words broke a template).
    func library(_ tag: String?) -> MustacheLibrary? {
        if let tag, let lazy = libraries[tag], let library = try? lazy.library() { return library }
        return try? libraries[defaultTag]?.library()
    }

    func render(_ model: Any, withTemplate name: String, language: String? = PageLanguage.words?.tag) -> String? {
        library(language)?.render(model, withTemplate: name)
    }

    /// Parses every language's templates (the default language first), so that no reader waits for it; throws the
    /// first template a language's words broke. The server calls it once it listens; tests call it to prove they parse.
    func warm() throws {
        _ = try libraries[defaultTag]?.library()
        for (_, lazy) in libraries.sorted(by: { $0.key < $1.key }) { _ = try lazy.library() }
    }
}

/// The words of the page being answered, set once per page request by `CookieAuthMiddleware` from the reader, so that
/// the renderer and the pages' problems need no argument at their hundred call sites.
enum PageLanguage {
    @TaskLocal static var words: Catalogue.Words?

    /// An English sentence of the Swift code (a problem's title, a field's message) in the page's language.
    static func say(_ english: String) -> String { words?.say(english) ?? english }
}
