import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// Type-ahead when paying (issue 39: "@car" suggested nobody): people the payer paid or was paid by, by the start of
/// their username or name, and anyone else only by their exact username (never more than the lookup already tells).
@Suite struct PeopleSuggestTests {
    @Test(arguments: TestEngine.enabled)
    func typingTheStartOfAContactsNameSuggestsThemAndNoStranger(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("carla")
            _ = try await accounts.signedIn("carlos")
            let wallet = WalletDriver(client)
            try await wallet.fund(2_000, token: anna)
            #expect(try await wallet.transfer(to: "carla", 500, token: anna).status == .created)

            func suggest(_ typed: String) async throws -> TestResponse {
                let query = typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                return try await client.send(.get, "/v1/people/suggest?q=\(query)", token: anna)
            }
            func names(_ typed: String) async throws -> [String] {
                try await suggest(typed).decode(Page<Person>.self).items.map(\.username)
            }
            // Carla was paid: "@car", "car" and her name's start find her. Carlos, a stranger, stays unlisted.
            #expect(try await names("@car") == ["carla"])
            #expect(try await names("Car") == ["carla"])
            #expect(try await names("carl") == ["carla"])
            // Anyone by their exact username, as the lookup tells already, first.
            #expect(try await names("carlos") == ["carlos"])
            #expect(try await names("@carla") == ["carla"])
            #expect(try await names("") == [])
            #expect(try await names("anna") == [], "never yourself")
            let long = try await suggest(String(repeating: "a", count: 81))
            #expect(long.status == .unprocessableContent && long.problem?.errors?.first?.field == "q")
            #expect(try await client.send(.get, "/v1/people/suggest?q=car").status == .unauthorized)

            // The pay form's script reads the same suggestions; without it, a name that matches nobody is answered
            // beside the field with the suggestions as links.
            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            let json = try await page.get("/wallet/people?q=car").text
            #expect(json.contains(#""username":"carla""#) && !json.contains("carlos"), "\(json)")
            let form = try await page.get("/wallet/send").text
            #expect(form.contains(#"role="combobox""#) && form.contains(#"aria-controls="to-options""#))
            let refused = try await page.follow(try await page.get("/wallet/send/review?to=%40car&amount=5"))
            #expect(refused.text.contains("No one has the username @car"), "\(refused.text)")
            #expect(refused.text.contains(#"href="/wallet/send?to=%40carla&amp;amount=5""#), "\(refused.text)")
        }
    }
}
