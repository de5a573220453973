import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct SessionListTests {
    @Test(arguments: TestEngine.enabled)
    func sessionsArePagedWithACursor(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let current = try await accounts.signedIn("zoe")
            for _ in 0..<4 { _ = try await accounts.login("zoe") }
            var seen: [SessionInfo] = []
            var cursor: String?
            repeat {
                let query =
                    cursor.map { "&cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" } ?? ""
                let page = try await client.send(.get, "/v1/me/sessions?limit=2\(query)", token: current.accessToken)
                    .decode(Page<SessionInfo>.self)
                #expect(page.items.count <= 2)
                seen += page.items
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen.count == 5)
            #expect(Set(seen.map(\.id)).count == 5)
            #expect(seen.filter(\.current).count == 1)
        }
    }

    @Test func badPagingIsAValidationProblem() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let tokens = try await AccountsDriver(client).signedIn("zoe")
            #expect(
                try await client.send(.get, "/v1/me/sessions?limit=0", token: tokens.accessToken).problem?.errors?
                    .first?.field == "limit"
            )
            #expect(
                try await client.send(.get, "/v1/me/sessions?limit=abc", token: tokens.accessToken).status
                    == .unprocessableContent
            )
            #expect(
                try await client.send(.get, "/v1/me/sessions?cursor=%%%", token: tokens.accessToken).problem?.errors?
                    .first?.field == "cursor"
            )
        }
    }

    @Test(arguments: TestEngine.enabled)
    func oneUserCannotSignOutAnothersDevice(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let zoe = try await accounts.signedIn("zoe")
            let max = try await accounts.signedIn("max")
            let maxSessions = try await client.send(.get, "/v1/me/sessions", token: max.accessToken).decode(
                Page<SessionInfo>.self
            )
            let target = try #require(maxSessions.items.first)
            let attempt = try await client.send(.delete, "/v1/me/sessions/\(target.id)", token: zoe.accessToken)
            #expect(attempt.status == .notFound)
            #expect(try await client.send(.get, "/v1/me", token: max.accessToken).status == .ok)
            #expect(
                try await client.send(.delete, "/v1/me/sessions/\(target.id)", token: max.accessToken).status
                    == .noContent
            )
            #expect(try await client.send(.get, "/v1/me", token: max.accessToken).status == .unauthorized)
        }
    }
}
