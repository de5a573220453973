import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// The language a user chooses for pages, mails and pushes (issue 41): one the server offers, kept with the account.
@Suite struct LanguageChoiceTests {
    static func register(
        _ client: any TestClientProtocol,
        _ name: String,
        language: String?
    ) async throws
        -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/auth/register",
            json: RegisterRequest(
                email: "\(name)@example.com",
                username: name,
                displayName: name.capitalized,
                password: AccountsDriver.password,
                language: language
            )
        )
    }

    static func me(_ client: any TestClientProtocol, _ token: String) async throws -> User {
        try await client.send(.get, "/v1/me", token: token).decode(User.self)
    }

    @Test(arguments: TestEngine.enabled)
    func aLanguageChosenAtSignUpIsKeptInTheOfferedSpelling(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let zoe = try await Self.register(client, "zoe", language: "DE")
            #expect(zoe.status == .created)
            #expect(try zoe.decode(User.self).language == "de")
            try await accounts.verify("zoe")
            let tokens = try await accounts.login("zoe").decode(TokenResponse.self)
            #expect(tokens.user.language == "de")
            #expect(try await Self.me(client, tokens.accessToken).language == "de")

            let max = try await Self.register(client, "max", language: nil)
            #expect(try max.decode(User.self).language == nil)
            #expect(!max.text.contains("\"language\""))

            let refused = try await Self.register(client, "ida", language: "xx")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.problem?.code == .validationFailed)
            #expect(refused.problem?.errors?.map(\.field) == ["language"])
            // Nothing was created: the name is still free.
            #expect(try await Self.register(client, "ida", language: "es").status == .created)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theProfileChangesTheLanguageToAnOfferedOneOrClearsIt(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let token = try await AccountsDriver(client).signedIn("zoe").accessToken
            func update(_ language: String) async throws -> TestResponse {
                try await client.send(.patch, "/v1/me", json: ProfileUpdate(language: language), token: token)
            }
            #expect(try await Self.me(client, token).language == nil)
            #expect(try await update("es").decode(User.self).language == "es")
            #expect(try await Self.me(client, token).language == "es")
            #expect(try await update("DE").decode(User.self).language == "de")
            #expect(try await Self.me(client, token).language == "de")
            // Outside production the pseudo-language is offered, in its own spelling.
            #expect(try await update("en-xa").decode(User.self).language == "en-XA")

            let unknown = try await update("xx")
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.problem?.code == .validationFailed)
            let error = try #require(unknown.problem?.errors?.first)
            #expect(unknown.problem?.errors?.count == 1)
            #expect(error.field == "language")
            #expect(error.message == "Choose one of the languages this Plaza offers: en, ar, de, es, en-XA.")
            #expect(try await Self.me(client, token).language == "en-XA")

            let null = try await client.sendRaw(.patch, "/v1/me", body: #"{"language": null}"#, token: token)
            #expect(null.status == .unprocessableContent)
            #expect(null.problem?.errors?.map(\.field) == ["language"])
            #expect(try await Self.me(client, token).language == "en-XA")

            // Another field changes without touching the language.
            let renamed = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Zoe B."),
                token: token
            )
            #expect(try renamed.decode(User.self).language == "en-XA")

            #expect(try await update("").decode(User.self).language == nil)
            #expect(try await Self.me(client, token).language == nil)
        }
    }

    /// Production offers no pseudo-language: neither sign-up nor the profile may choose it.
    @Test func productionRefusesThePseudoLanguage() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.mode = .production }) { client, _ in
            let signUp = try await Self.register(client, "zoe", language: "en-XA")
            #expect(signUp.status == .unprocessableContent)
            #expect(signUp.problem?.errors?.map(\.field) == ["language"])
            #expect(signUp.problem?.errors?.first?.message.contains("en-XA") == false)

            let admin = try await AccountsDriver(client).login(AccountsDriver.admin).decode(TokenResponse.self)
            let update = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(language: "en-XA"),
                token: admin.accessToken
            )
            #expect(update.status == .unprocessableContent)
            #expect(update.problem?.errors?.map(\.field) == ["language"])
            let german = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(language: "de"),
                token: admin.accessToken
            )
            #expect(try german.decode(User.self).language == "de")
        }
    }
}
