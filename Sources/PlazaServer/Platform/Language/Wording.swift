import Foundation
import PlazaCore

/// An alert's words as catalogue keys with their values, so that the notifications' recorder writes it in each
/// recipient's language (issue 41). The English `NotificationContent` it travels with is what a recipient without
/// words of their own reads.
///
/// Two ways to name the words: a key of the catalogue (`Wording(key: "alert.money_received")` reads
/// `alert.money_received.title` and `.body`), or the English sentences themselves, said in Swift
/// (`Wording(title: phrase("{name} rated your deal"), body: phrase("Rate them too to read it."))`).
struct Wording: Codable, Sendable, Hashable {
    /// The catalogue keys of the title and the body (`=<sentence>` for a said sentence; empty for no body).
    var title: String
    var body: String
    var values: [String: String] = [:]
    /// Amounts put in by name, written the recipient's way (`4,20 €` in German, `€4.20` in English).
    var amounts: [String: Money] = [:]
    /// A count for the plural forms of the body and the title (`{count}` in the recipient's digits).
    var count: Int?

    init(key: String, values: [String: String] = [:], amounts: [String: Money] = [:], count: Int? = nil) {
        title = "\(key).title"
        body = "\(key).body"
        self.values = values
        self.amounts = amounts
        self.count = count
    }

    /// English sentences said in Swift, each its own key (`=<sentence>`): mark them with `phrase` where written.
    init(title: String, body: String, values: [String: String] = [:], amounts: [String: Money] = [:]) {
        self.title = "=" + title
        self.body = body.isEmpty ? "" : "=" + body
        self.values = values
        self.amounts = amounts
    }

    /// The content in `words`' language (its kind and link unchanged).
    func content(_ english: NotificationContent, in words: Catalogue.Words) -> NotificationContent {
        content(kind: english.kind, link: english.link, in: words)
    }

    /// The content of this kind and link in `words`' language.
    func content(kind: NotificationKind, link: String, in words: Catalogue.Words) -> NotificationContent {
        var values = values
        for (name, money) in amounts { values[name] = money.formatted(locale: words.locale) }
        let filled = values
        // With a count, the title may have plural forms as well as the body ("plaza verify: 2 problems").
        func said(_ key: String) -> String {
            guard let count else { return words(key, filled) }
            return words.count(count, key, filled)
        }
        return NotificationContent(kind: kind, title: said(title), body: body.isEmpty ? "" : said(body), link: link)
    }

    /// The English content (for a recipient without a language, and what the publisher returns).
    func english(kind: NotificationKind, link: String) -> NotificationContent {
        content(kind: kind, link: link, in: Catalogue.englishWords)
    }
}

extension FeedMessage {
    /// An alert in each recipient's language, its English made from the same words.
    static func alert(user: UUID, kind: NotificationKind, link: String, _ wording: Wording) -> FeedMessage {
        .alert(user: user, content: wording.english(kind: kind, link: link), wording: wording)
    }
}
