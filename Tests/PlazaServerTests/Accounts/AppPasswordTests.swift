import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// App passwords: HTTP Basic credentials for devices that cannot log in (OwnTracks uses them in `Places`).
@Suite struct AppPasswordTests {
    /// The secret is shown once: a retry of the creation under the same key gets the app password without it.
    @Test(arguments: TestEngine.enabled)
    func aRetriedAppPasswordCreationDoesNotShowTheSecretAgain(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let anna = try await AccountsDriver(client).signedIn("anna")
            let request = AppPasswordRequest(name: "OwnTracks")
            let first = try await client.send(
                .post,
                "/v1/me/app-passwords",
                json: request,
                token: anna.accessToken,
                headers: [.idempotencyKey: "k-1"]
            )
            #expect(first.status == .created)
            let created = try first.decode(AppPassword.self)
            let secret = try #require(created.password)
            let retry = try await client.send(
                .post,
                "/v1/me/app-passwords",
                json: request,
                token: anna.accessToken,
                headers: [.idempotencyKey: "k-1"]
            )
            #expect(retry.status == .created && retry.headers[.idempotentReplayed] == "true")
            let replayed = try retry.decode(AppPassword.self)
            #expect(replayed.id == created.id && replayed.password == nil)
            #expect(!retry.text.contains(secret))
            // Nor does the database keep it anywhere a dump would show.
            let rows = try await services.database.sql.raw("SELECT body FROM idempotency_keys").all()
            #expect(try rows.allSatisfy { try !($0.decode(column: "body", as: String?.self) ?? "").contains(secret) })
            let listed = try await client.send(.get, "/v1/me/app-passwords", token: anna.accessToken).decode(
                Page<AppPassword>.self
            )
            #expect(listed.items.count == 1)
        }
    }

    /// On the web: the places settings point to the account page, which makes one, shows its secret once with what
    /// to type into OwnTracks, lists it and deletes it.
    @Test func theAccountPageMakesListsAndDeletesAppPasswords() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await AccountsDriver(client).signedIn("anna")
            let browser = PageSession(client)
            _ = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "anna", "password": AccountsDriver.password]
            )
            #expect(try await browser.get("/places/settings").text.contains(#"href="/account#app-passwords""#))
            let account = try await browser.get("/account").text
            #expect(account.contains(#"id="app-passwords""#) && account.contains("never used") == false)
            let created = try await browser.post(
                "/account/app-passwords",
                ["name": "My phone"],
                csrf: PageSession.csrfToken(in: account)
            )
            #expect(created.status == .ok)
            let page = created.text
            #expect(page.contains(#"&quot;My phone&quot; created"#) || page.contains("\"My phone\" created"))
            #expect(
                page.contains(#"<code id="app-password">"#) && page.contains("/v1/owntracks")
                    && page.contains("never used")
            )
            let id = try #require(page.firstMatch(of: /app-passwords\/([0-9a-f-]{36})\/delete/)?.output.1)
            let deleted = try await browser.post(
                "/account/app-passwords/\(id)/delete",
                [:],
                csrf: PageSession.csrfToken(in: page)
            )
            #expect(deleted.headers[.location] == "/account?notice=app-password-deleted#app-passwords")
            #expect(!(try await browser.get("/account").text.contains("My phone")))
        }
    }
}
