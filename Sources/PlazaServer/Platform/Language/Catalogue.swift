import Foundation

/// The words of pages, mails, pushes and problems in every language this Plaza offers (issue 41).
///
/// One JSON file per language under `Resources/Messages/` (`de.json`) maps keys to texts; adding a language is adding
/// a file. A text names its values in braces (`"You sent {amount} to {name}."`); a plural is an object of CLDR plural
/// categories (`{"one": "{count} punch", "other": "{count} punches"}`). The file's `@language` entry names the
/// language in itself and its direction. English is complete by definition; another language falls back to English
/// for a key it lacks, which the pseudo-locale check finds. `en-XA` is made from English outside production: every
/// letter accented and every text a third longer, so that English left in a page and text that would overflow show.
struct Catalogue: Sendable {
    /// A language as `GET /v1/languages` lists it.
    struct Language: Sendable, Hashable, Codable {
        var tag: String
        /// In itself: "Deutsch".
        var name: String
        /// `ltr` or `rtl`.
        var dir: String
    }

    enum Text: Sendable, Hashable {
        case plain(String)
        case plural([String: String])
    }

    /// The texts of one language, with English under them.
    struct Words: Sendable {
        let language: Language
        let texts: [String: Text]
        let fallback: [String: Text]

        var tag: String { language.tag }
        var rightToLeft: Bool { language.dir == "rtl" }
        /// How this language's readers write money and numbers when nothing else says (an alert, a mail): English as
        /// in the US, another language in its usual region (`de` → Germany).
        var locale: Locale {
            tag.hasPrefix("en")
                ? Locale(identifier: "en_US") : Locale(identifier: Locale.Language(identifier: tag).maximalIdentifier)
        }

        /// The text of `key` with its values put in; the key itself when no language has it (a mistake a test finds).
        func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
            switch texts[key] ?? fallback[key] {
            case .plain(let text): Catalogue.fill(text, values)
            case .plural(let forms): Catalogue.fill(forms["other"] ?? "", values)
            case nil: key
            }
        }

        /// The plural of `key` for `count`, which `{count}` shows as `shown` (the reader's digits).
        func plural(_ key: String, count: Int, shown: String, _ values: [String: String] = [:]) -> String {
            let category = PluralRules.category(of: count, language: tag)
            var values = values
            values["count"] = shown
            switch texts[key] ?? fallback[key] {
            case .plural(let forms): return Catalogue.fill(forms[category] ?? forms["other"] ?? "", values)
            case .plain(let text): return Catalogue.fill(text, values)
            case nil: return key
            }
        }

        func has(_ key: String) -> Bool { texts[key] != nil || fallback[key] != nil }

        /// The plural forms of `key` (CLDR category → text), nil for a plain text: for the page scripts.
        func forms(_ key: String) -> [String: String]? {
            if case .plural(let forms) = texts[key] ?? fallback[key] { return forms }
            return nil
        }

        /// The keys starting with `prefix`, of this language and English.
        func keys(prefix: String) -> Set<String> {
            Set(texts.keys.filter { $0.hasPrefix(prefix) }).union(fallback.keys.filter { $0.hasPrefix(prefix) })
        }

        /// An English sentence of the Swift code in this language: its entry under `=` and the sentence
        /// (`"=Some fields need attention."`), else the sentence as written. Problems' titles and fields' messages are
        /// looked up this way, so the services keep writing English and a sentence with a value in it stays English
        /// until it gets a key of its own.
        func say(_ english: String) -> String {
            if case .plain(let text) = texts["=" + english] ?? fallback["=" + english] { return text }
            return english
        }
    }

    static let english = "en"
    static let pseudo = "en-XA"

    /// The shipped English words, for what is written outside a request (`Reader.standard`).
    static let englishWords: Words = {
        let shipped = try? load(pseudo: false)
        return shipped?.words(english)
            ?? Words(language: Language(tag: english, name: "English", dir: "ltr"), texts: [:], fallback: [:])
    }()

    /// Offered languages, English first, then by tag.
    let languages: [Language]
    let defaultTag: String
    private let words: [String: Words]

    /// The words of `tag`, else of the default language.
    func words(_ tag: String?) -> Words {
        tag.flatMap { words[$0] } ?? words[defaultTag]!
    }

    func offers(_ tag: String) -> Bool { words[tag] != nil }

    /// The offered language that best answers `Accept-Language`: the first tag offered as written, else its language
    /// alone (`de-AT` → `de`); `nil` when none is offered.
    func best(acceptLanguage: String?) -> String? {
        let tags = (acceptLanguage ?? "").split(separator: ",").prefix(20).compactMap { part -> (String, Double)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty, tag != "*", tag.count <= 35 else { return nil }
            let weight = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0 ? (tag, weight) : nil
        }
        for (tag, _) in tags.enumerated().sorted(by: { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) })
            .map(\.element)
        {
            if let exact = languages.first(where: { $0.tag.lowercased() == tag.lowercased() }) { return exact.tag }
            let primary = tag.split(separator: "-")[0].lowercased()
            if let match = languages.first(where: { $0.tag.lowercased() == primary }) { return match.tag }
        }
        return nil
    }

    /// The page's language: the account's, else the browser's best offered, else the operator's.
    func choose(account: String?, acceptLanguage: String?) -> String {
        if let account, offers(account) { return account }
        return best(acceptLanguage: acceptLanguage) ?? defaultTag
    }

    // MARK: Loading

    /// A catalogue file that cannot be read: Plaza does not start with it.
    struct BrokenFile: Error, CustomStringConvertible {
        let file: String
        let reason: String
        var description: String { "Messages/\(file): \(reason)" }
    }

    /// The tags of the shipped files (without the pseudo-locale), for checking `PLAZA_DEFAULT_LANGUAGE` at start-up.
    static func shippedTags() -> [String] {
        guard let directory = directory,
            let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [english] }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static var directory: URL? {
        Bundle.module.url(forResource: "Messages", withExtension: nil, subdirectory: "Resources")
    }

    /// Reads every shipped language; `pseudo` adds `en-XA`.
    static func load(defaultTag: String = english, pseudo withPseudo: Bool) throws -> Catalogue {
        var files: [String: (Language, [String: Text])] = [:]
        for tag in shippedTags() {
            guard let url = directory?.appendingPathComponent("\(tag).json") else { continue }
            files[tag] = try parse(Data(contentsOf: url), tag: tag)
        }
        guard let english = files[Self.english] else { throw BrokenFile(file: "en.json", reason: "is missing") }
        if withPseudo {
            files[Self.pseudo] = (
                Language(tag: Self.pseudo, name: "Ënglîsh (pséudo)", dir: "ltr"),
                english.1.mapValues(Pseudo.text)
            )
        }
        return Catalogue(files: files, defaultTag: defaultTag)
    }

    init(files: [String: (Language, [String: Text])], defaultTag: String) {
        let english = files[Self.english]?.1 ?? [:]
        words = files.mapValues { Words(language: $0.0, texts: $0.1, fallback: english) }
        // English first, the pseudo-locale last, the rest by tag.
        let rank = { (tag: String) in tag == Self.english ? 0 : tag == Self.pseudo ? 2 : 1 }
        languages = files.values.map(\.0).sorted { (rank($0.tag), $0.tag) < (rank($1.tag), $1.tag) }
        self.defaultTag = files[defaultTag] != nil ? defaultTag : Self.english
    }

    static func parse(_ data: Data, tag: String) throws -> (Language, [String: Text]) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BrokenFile(file: "\(tag).json", reason: "is not a JSON object")
        }
        let about = object["@language"] as? [String: String] ?? [:]
        let language = Language(tag: tag, name: about["name"] ?? tag, dir: about["dir"] == "rtl" ? "rtl" : "ltr")
        var texts: [String: Text] = [:]
        for (key, value) in object where key != "@language" {
            if let text = value as? String {
                texts[key] = .plain(text)
            } else if let forms = value as? [String: String], forms["other"] != nil {
                texts[key] = .plural(forms)
            } else {
                throw BrokenFile(file: "\(tag).json", reason: "\(key) is neither a text nor plural forms with other")
            }
        }
        return (language, texts)
    }

    /// Puts each `{name}` of `values` into `text` in one pass (a value's own braces stay as they are); a brace
    /// without a value stays as written.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"),
                let value = values[String(rest[rest.index(after: open)..<close])]
            else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
