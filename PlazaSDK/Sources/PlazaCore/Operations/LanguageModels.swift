import Foundation

/// A language this Plaza offers for pages, mails and pushes, as `GET /v1/languages` lists it.
public struct PlazaLanguage: Codable, Sendable, Hashable {
    /// The BCP 47 tag (`de`, `en-XA`): what `User.language` holds.
    public var tag: String
    /// The language's name in itself ("Deutsch"), for a picker that everyone can read.
    public var name: String
    /// The writing direction: `ltr` or `rtl`.
    public var dir: String

    public init(tag: String, name: String, dir: String) {
        self.tag = tag
        self.name = name
        self.dir = dir
    }

    /// Whether the language is written from right to left (Arabic).
    public var rightToLeft: Bool { dir == "rtl" }
}

/// `GET /v1/languages`: the languages offered, English first, and the operator's default.
public struct LanguageList: Codable, Sendable, Hashable {
    public var items: [PlazaLanguage]
    /// The tag pages use when neither the account nor the browser names an offered language.
    public var `default`: String

    public init(items: [PlazaLanguage], default: String) {
        self.items = items
        self.default = `default`
    }

    /// The offered spelling of `tag`, matched regardless of case (`DE` → `de`, `en-xa` → `en-XA`); nil when this
    /// Plaza does not offer it.
    public func offered(_ tag: String) -> String? {
        let wanted = tag.lowercased()
        return items.first { $0.tag.lowercased() == wanted }?.tag
    }

    /// What a refused choice of language says.
    public var problem: String {
        "Choose one of the languages this Plaza offers: \(items.map(\.tag).joined(separator: ", "))."
    }

    /// The problem of choosing `tag`, else nil; an empty string chooses none, which is no problem.
    public func problem(choosing tag: String) -> String? {
        tag.isEmpty || offered(tag) != nil ? nil : problem
    }
}
