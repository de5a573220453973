import Foundation
import PlazaCore

/// Type-ahead when paying or asking (issue 39: "@car" suggested nobody): the people the caller paid or was paid by whose
/// username or name starts with what they typed, and anyone else only by their exact username, which the lookup
/// (`GET /v1/people/{username}`) already tells: nothing here lists accounts a caller could not name already.
extension WalletService {
    /// Suggestions are cheap but each is a look-up: limited per caller like other guessable look-ups.
    var suggestionRule: RateLimiter.Rule { RateLimiter.Rule(bucket: "people-suggest", limit: 600) }

    /// Up to `limit` people for `typed` (`car`, `@car`, `Carla K`), an exact username first, then contacts most
    /// recent first; none for empty text. 422 naming `q` for text longer than a name.
    func suggestPeople(_ identity: Identity, typed: String, limit: Int = 6, now: Date = Date()) async throws -> [Person]
    {
        let text = AccountRules.handle(typed).lowercased()
        guard text.count <= 80 else {
            throw PlazaError.validation(
                field: "q",
                phrase("Type the start of a username or name (at most 80 characters).")
            )
        }
        guard !text.isEmpty else { return [] }
        try await limiter.hit(suggestionRule, identity.user.id.uuidString, now: now)
        let me = identity.user.username
        var found = try await contacts(identity, limit: 50).filter { $0.username != me && Self.matches($0, text) }
        if AccountRules.usernameProblem(text) == nil, text != me,
            let exact = try await accounts.users(usernames: [text], on: database.sql).first
        {
            found.removeAll { $0.username == exact.username }
            found.insert(Person(username: exact.username, displayName: exact.displayName), at: 0)
        }
        return Array(found.prefix(limit))
    }

    /// Whether `text` (lower-cased) starts the person's username, their name, or a word of their name.
    static func matches(_ person: Person, _ text: String) -> Bool {
        let name = person.displayName.lowercased()
        return person.username.lowercased().hasPrefix(text) || name.hasPrefix(text)
            || name.split(separator: " ").contains { $0.hasPrefix(text) }
    }
}
