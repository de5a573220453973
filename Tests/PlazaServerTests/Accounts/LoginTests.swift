import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct LoginTests {
    @Test func wrongPasswordAndUnknownAccountLookAlike() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("zoe")
            let wrong = try await accounts.login("zoe", password: "not the password")
            let unknown = try await accounts.login("nobody", password: "not the password")
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(wrong.problem?.code == .invalidCredentials)
            #expect(wrong.text == unknown.text)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func failuresPerAccountAreLimitedEvenForTheRightPassword(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, configure: { $0.limits.loginFailuresPerAccount = 3 }) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("zoe")
            for _ in 0..<3 { #expect(try await accounts.login("zoe", password: "wrong password!").status == .unauthorized) }
            let locked = try await accounts.login("zoe")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.problem?.code == .rateLimited)
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
            // Unknown accounts lock the same way, so the lock tells nothing.
            for _ in 0..<3 { _ = try await accounts.login("ghost", password: "wrong password!") }
            #expect(try await accounts.login("ghost", password: "wrong password!").status == .tooManyRequests)
        }
    }

    @Test func failuresPerAddressAreLimitedAcrossAccounts() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.limits.loginFailuresPerAddress = 4 }) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("zoe")
            for name in ["a1a", "b2b", "c3c", "d4d"] { _ = try await accounts.login(name, password: "wrong password!") }
            #expect(try await accounts.login("zoe").status == .tooManyRequests)
        }
    }

    @Test func aSuccessfulLogInClearsTheAccountsFailures() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.limits.loginFailuresPerAccount = 3 }) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("zoe")
            for _ in 0..<2 { _ = try await accounts.login("zoe", password: "wrong password!") }
            #expect(try await accounts.login("zoe").status == .ok)
            for _ in 0..<2 { _ = try await accounts.login("zoe", password: "wrong password!") }
            #expect(try await accounts.login("zoe").status == .ok)
        }
    }

    @Test func emptyCredentialsAreAValidationProblem() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let response = try await client.send(.post, "/v1/auth/login", json: LoginRequest(login: "", password: ""))
            #expect(response.status == .unprocessableContent)
            #expect(Set(response.problem?.errors?.map(\.field) ?? []) == ["login", "password"])
        }
    }
}
