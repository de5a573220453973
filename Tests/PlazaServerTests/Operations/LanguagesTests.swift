import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// `GET /v1/languages`: what an app's language picker shows, without signing in.
@Suite struct LanguagesTests {
    static let shipped = [
        PlazaLanguage(tag: "en", name: "English", dir: "ltr"),
        PlazaLanguage(tag: "ar", name: "العربية", dir: "rtl"),
        PlazaLanguage(tag: "de", name: "Deutsch", dir: "ltr"),
        PlazaLanguage(tag: "es", name: "Español", dir: "ltr"),
    ]

    @Test func everyOfferedLanguageIsNamedInItselfWithItsDirection() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let response = try await client.send(.get, "/v1/languages")
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "public, max-age=300")
            let list = try response.decode(LanguageList.self)
            #expect(list.default == "en")
            // Outside production the pseudo-language is offered too, after English among the others by tag.
            #expect(list.items.map(\.tag) == ["en", "ar", "de", "es", "en-XA"])
            #expect(list.items.filter { $0.tag != "en-XA" } == Self.shipped)
            #expect(list.items.first { $0.tag == "en-XA" }?.dir == "ltr")
            let raw = try #require(
                try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any]
            )
            #expect(raw["default"] as? String == "en")
        }
    }

    @Test func productionOffersNoPseudoLanguage() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.mode = .production }) { client, _ in
            let list = try await client.send(.get, "/v1/languages").decode(LanguageList.self)
            #expect(list.items == Self.shipped)
            #expect(list.default == "en")
        }
    }
}
