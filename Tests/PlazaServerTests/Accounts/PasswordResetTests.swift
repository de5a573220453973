import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

@Suite struct PasswordResetTests {
    @Test(arguments: TestEngine.enabled)
    func aResetCodeSetsANewPasswordAndSignsOutEverywhere(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let tokens = try await accounts.signedIn("zoe")
            #expect(
                try await client.send(.post, "/v1/auth/forgot-password", json: EmailRequest(email: "zoe@example.com"))
                    .status == .accepted
            )
            let code = try await accounts.latestCode(for: "zoe@example.com")
            let weak = try await client.send(
                .post,
                "/v1/auth/reset-password",
                json: ResetPasswordRequest(email: "zoe@example.com", code: code, newPassword: "short")
            )
            #expect(weak.problem?.errors?.first?.field == "newPassword")
            let reset = try await client.send(
                .post,
                "/v1/auth/reset-password",
                json: ResetPasswordRequest(email: "zoe@example.com", code: code, newPassword: "a fresh new passphrase")
            )
            #expect(reset.status == .ok)
            #expect(try await client.send(.get, "/v1/me", token: tokens.accessToken).status == .unauthorized)
            #expect(try await accounts.login("zoe", password: "a fresh new passphrase").status == .ok)
            let reused = try await client.send(
                .post,
                "/v1/auth/reset-password",
                json: ResetPasswordRequest(email: "zoe@example.com", code: code, newPassword: "yet another passphrase")
            )
            #expect(reused.problem?.code == .invalidCode)
        }
    }

    @Test func forgotPasswordAnswersTheSameForUnknownAddresses() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            _ = try await AccountsDriver(client).signedIn("zoe")
            let known = try await client.send(
                .post,
                "/v1/auth/forgot-password",
                json: EmailRequest(email: "zoe@example.com")
            )
            let unknown = try await client.send(
                .post,
                "/v1/auth/forgot-password",
                json: EmailRequest(email: "ghost@example.com")
            )
            #expect(known.status == unknown.status && known.text == unknown.text)
            let guess = try await client.send(
                .post,
                "/v1/auth/reset-password",
                json: ResetPasswordRequest(
                    email: "ghost@example.com",
                    code: "123456",
                    newPassword: "a fresh new passphrase"
                )
            )
            #expect(guess.problem?.code == .invalidCode)
        }
    }

    @Test func codesExpireAfterFifteenMinutes() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("zoe")
            try await services.accounts.forgotPassword(
                email: "zoe@example.com",
                client: "test",
                now: Date().addingTimeInterval(-16 * 60)
            )
            let code = try await accounts.latestCode(for: "zoe@example.com")
            let late = try await client.send(
                .post,
                "/v1/auth/reset-password",
                json: ResetPasswordRequest(email: "zoe@example.com", code: code, newPassword: "a fresh new passphrase")
            )
            #expect(late.problem?.code == .invalidCode)
        }
    }
}

@Suite struct CodeGuessingTests {
    @Test func wrongCodesFromOneAddressAreLimitedAcrossAccounts() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.limits.loginFailuresPerAddress = 3 }) { client, _ in
            for name in ["ann", "bob", "cat"] {
                let guess = try await client.send(
                    .post,
                    "/v1/auth/reset-password",
                    json: ResetPasswordRequest(
                        email: "\(name)@example.com",
                        code: "123456",
                        newPassword: "a fresh passphrase"
                    )
                )
                #expect(guess.problem?.code == .invalidCode)
            }
            let limited = try await client.send(
                .post,
                "/v1/auth/verify-email",
                json: VerifyEmailRequest(email: "dan@example.com", code: "123456")
            )
            #expect(limited.status == .tooManyRequests)
        }
    }
}
