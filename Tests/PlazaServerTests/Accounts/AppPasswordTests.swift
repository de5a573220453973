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
            let first = try await client.send(.post, "/v1/me/app-passwords", json: request, token: anna.accessToken, headers: [.idempotencyKey: "k-1"])
            #expect(first.status == .created)
            let created = try first.decode(AppPassword.self)
            let secret = try #require(created.password)
            let retry = try await client.send(.post, "/v1/me/app-passwords", json: request, token: anna.accessToken, headers: [.idempotencyKey: "k-1"])
            #expect(retry.status == .created && retry.headers[.idempotentReplayed] == "true")
            let replayed = try retry.decode(AppPassword.self)
            #expect(replayed.id == created.id && replayed.password == nil)
            #expect(!retry.text.contains(secret))
            // Nor does the database keep it anywhere a dump would show.
            let rows = try await services.database.sql.raw("SELECT body FROM idempotency_keys").all()
            #expect(try rows.allSatisfy { try !($0.decode(column: "body", as: String?.self) ?? "").contains(secret) })
            let listed = try await client.send(.get, "/v1/me/app-passwords", token: anna.accessToken).decode(Page<AppPassword>.self)
            #expect(listed.items.count == 1)
        }
    }
}
