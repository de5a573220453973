import PlazaCore

/// An alert's words as catalogue keys (`<key>.title`, `<key>.body`) with their values, so that the notifications'
/// recorder writes it in each recipient's language (issue 41). The English `NotificationContent` it travels with is
/// what a recipient without words of their own reads.
struct Wording: Codable, Sendable, Hashable {
    var key: String
    var values: [String: String] = [:]

    /// The content in `words`' language (its kind and link unchanged).
    func content(_ english: NotificationContent, in words: Catalogue.Words) -> NotificationContent {
        NotificationContent(
            kind: english.kind,
            title: words("\(key).title", values),
            body: words("\(key).body", values),
            link: english.link
        )
    }
}
