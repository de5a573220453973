import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct VerificationTests {
    @Test(arguments: TestEngine.enabled)
    func aCodeDiesAfterFiveWrongGuesses(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            try await accounts.register("zoe")
            let code = try await accounts.latestCode(for: "zoe@example.com")
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let guess = try await client.send(
                    .post,
                    "/v1/auth/verify-email",
                    json: VerifyEmailRequest(email: "zoe@example.com", code: wrong)
                )
                #expect(guess.problem?.code == .invalidCode)
            }
            let right = try await client.send(
                .post,
                "/v1/auth/verify-email",
                json: VerifyEmailRequest(email: "zoe@example.com", code: code)
            )
            #expect(right.status == .badRequest)
            #expect(right.problem?.code == .invalidCode)
        }
    }

    @Test func onlyTheNewestCodeWorks() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            try await accounts.register("zoe")
            let first = try await accounts.latestCode(for: "zoe@example.com")
            #expect(
                try await client.send(.post, "/v1/auth/resend-code", json: EmailRequest(email: "zoe@example.com"))
                    .status == .accepted
            )
            let second = try await accounts.latestCode(for: "zoe@example.com")
            if first != second {
                let old = try await client.send(
                    .post,
                    "/v1/auth/verify-email",
                    json: VerifyEmailRequest(email: "zoe@example.com", code: first)
                )
                #expect(old.problem?.code == .invalidCode)
            }
            let new = try await client.send(
                .post,
                "/v1/auth/verify-email",
                json: VerifyEmailRequest(email: "zoe@example.com", code: second)
            )
            #expect(new.status == .ok)
        }
    }

    @Test func resendAnswersTheSameForUnknownAddresses() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            try await accounts.register("zoe")
            let known = try await client.send(
                .post,
                "/v1/auth/resend-code",
                json: EmailRequest(email: "zoe@example.com")
            )
            let unknown = try await client.send(
                .post,
                "/v1/auth/resend-code",
                json: EmailRequest(email: "nobody@example.com")
            )
            #expect(known.status == .accepted && unknown.status == .accepted)
            #expect(known.text == unknown.text)
            #expect(try await accounts.mails(to: "nobody@example.com").isEmpty)
        }
    }

    @Test func codeMailsAreRateLimitedPerAddress() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.limits.codeMailsPerAccount = 2 }) { client, _ in
            try await AccountsDriver(client).register("zoe")
            for _ in 0..<2 {
                #expect(
                    try await client.send(.post, "/v1/auth/resend-code", json: EmailRequest(email: "zoe@example.com"))
                        .status == .accepted
                )
            }
            let limited = try await client.send(
                .post,
                "/v1/auth/resend-code",
                json: EmailRequest(email: "zoe@example.com")
            )
            #expect(limited.status == .tooManyRequests)
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 > 0)
        }
    }

    /// A sign-up with a taken address creates no account; were unverified accounts able to log in, logging in after a
    /// sign-up would tell a taken address from a free one. So nobody logs in before verifying, and it looks alike.
    @Test func unverifiedAccountsCannotLogInAndLookLikeAWrongPassword() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            try await accounts.register("zoe")
            let login = try await accounts.login("zoe")
            let wrong = try await accounts.login("nobody")
            #expect(login.status == .unauthorized && login.problem?.code == .invalidCredentials)
            #expect(login.text == wrong.text)
            try await accounts.verify("zoe")
            #expect(try await accounts.login("zoe").status == .ok)
        }
    }
}
