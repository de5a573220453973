import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 40: the card page gives its script the key that seals punches kept offline (one per person), and the
/// script's sync (`POST /loyalty/punches`, the page's twin of `POST /v1/me/loyalty-punches`) counts each punch once.
@Suite struct LoyaltyOfflinePunchPagesTests {
    @Test(arguments: TestEngine.enabled)
    func punchesKeptOfflineAreSealedPerPersonAndCountOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let (_, _, _, card, token) = try await LoyaltyPagesTests.breadCard(client, punches: 3)
            let page = "/loyalty/cards/\(card.id.uuidString.lowercased())"
            func signedIn(_ username: String) async throws -> PageSession {
                let session = PageSession(client)
                _ = try await session.submit(
                    "/login",
                    to: "/login",
                    ["login": username, "password": AccountsDriver.password]
                )
                return session
            }
            func seal(_ html: String) -> String? {
                guard let range = html.range(of: #"data-seal=""#) else { return nil }
                return String(html[range.upperBound...].prefix { $0 != "\"" })
            }
            let anna = try await signedIn("anna")
            let html = try await anna.get(page).text
            let key = try #require(seal(html))
            #expect(key.count == 64 && key.allSatisfy(\.isHexDigit))
            #expect(seal(try await signedIn("anna").get(page).text) == key, "the same person's key on every log-in")
            _ = try await AccountsDriver(client).signedIn("bob")
            let bob = try await signedIn("bob")
            #expect(try await bob.get(page).status == .notFound, "another person's card is not found")

            let kept = PunchSubmission(
                cardId: card.id,
                token: token.token,
                scannedAt: Date().addingTimeInterval(-60)
            )
            let batch = PunchBatch(punches: [kept])
            let csrf = PageSession.csrfToken(in: html)
            let refused = try await anna.postJSON("/loyalty/punches", batch, csrf: nil)
            #expect(refused.status == .forbidden, "a sync without the page's CSRF token is refused")

            let first = try await anna.postJSON("/loyalty/punches", batch, csrf: csrf).decode(PunchBatchResult.self)
            #expect(first.results.map(\.status) == [.counted])
            #expect(first.cards.first?.punches == 1)
            // Sent again (a sync cut off before its answer, or from a second tab): counted once all the same.
            let again = try await anna.postJSON("/loyalty/punches", batch, csrf: csrf).decode(PunchBatchResult.self)
            #expect(again.results.map(\.status) == [.duplicate])
            #expect(try await anna.get(page).text.contains("1 of 3"))
        }
    }
}
