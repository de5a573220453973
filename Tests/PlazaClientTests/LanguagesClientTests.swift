import Foundation
import PlazaClient
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// The SDK's language picker against a real Plaza: the offered languages, and the user's choice kept with the account.
@Suite struct LanguagesClientTests {
    @Test(arguments: TestEngine.enabled)
    func theChosenLanguageIsOneTheServerOffers(_ engine: TestEngine) async throws {
        try await PlazaClientTests.withLiveClient(engine) { plaza, mailbox in
            let offered = try await plaza.languages()
            #expect(offered.items.map(\.tag) == ["en", "ar", "de", "es", "en-XA"])
            #expect(offered.items.first { $0.tag == "ar" }?.rightToLeft == true)
            #expect(offered.default == "en")

            let user = try await plaza.register(
                RegisterRequest(
                    email: "zoe@example.com",
                    username: "zoe",
                    displayName: "Zoe",
                    password: AccountsDriver.password,
                    language: "DE"
                )
            )
            #expect(user.language == "de")
            try await plaza.verifyEmail("zoe@example.com", code: try await mailbox.latestCode(for: "zoe@example.com"))
            try await plaza.login("zoe", password: AccountsDriver.password)
            #expect(try await plaza.me().language == "de")
            #expect(try await plaza.updateProfile(ProfileUpdate(language: "es")).language == "es")
            do {
                _ = try await plaza.updateProfile(ProfileUpdate(language: "xx"))
                Issue.record("a language the server does not offer was accepted")
            } catch let error as PlazaClientError {
                #expect(error.code == .validationFailed)
                #expect(error.fieldErrors.map(\.field) == ["language"])
            }
            #expect(try await plaza.me().language == "es")
            #expect(try await plaza.updateProfile(ProfileUpdate(language: "")).language == nil)
        }
    }
}
