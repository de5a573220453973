import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

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
        // A minute's first wait, so that a slow machine does not see the lock lapse mid-test.
        try await TestPlaza.withApp(
            engine,
            configure: { ($0.limits.loginFailuresPerAccount, $0.limits.loginBackOffBase) = (3, 60) }
        ) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("zoe")
            for _ in 0..<3 {
                #expect(try await accounts.login("zoe", password: "wrong password!").status == .unauthorized)
            }
            let locked = try await accounts.login("zoe")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.problem?.code == .rateLimited)
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
            // Unknown accounts lock the same way, so the lock tells nothing.
            for _ in 0..<3 { _ = try await accounts.login("ghost", password: "wrong password!") }
            #expect(try await accounts.login("ghost", password: "wrong password!").status == .tooManyRequests)
        }
    }

    /// OWASP's device cookie: someone else's wrong passwords slow the account down for unknown devices only; the owner's
    /// phone and browser, which signed in before, still get in with the right password.
    @Test(arguments: TestEngine.enabled)
    func aDeviceThatSignedInBeforeIsNotLockedOutByAnAttacker(_ engine: TestEngine) async throws {
        // A minute's wait: the steps below must not outlast it on a slow machine (1 s did under load).
        try await TestPlaza.withApp(
            engine,
            configure: { ($0.limits.loginFailuresPerAccount, $0.limits.loginBackOffBase) = (3, 60) }
        ) { client, _ in
            let accounts = AccountsDriver(client)
            let phone = try #require(try await accounts.signedIn("zoe").deviceToken)
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "zoe", "password": AccountsDriver.password])
            #expect(await browser.cookies["plaza_device"] != nil)
            _ = try await browser.submit("/account", to: "/logout", [:])

            let otherDevice = try #require(try await accounts.signedIn("max").deviceToken)
            for _ in 0..<5 { _ = try await accounts.login("zoe", password: "guess number n") }
            #expect(try await accounts.login("zoe").status == .tooManyRequests)
            // Another account's device token is no pass for this one.
            let borrowed = try await client.send(
                .post,
                "/v1/auth/login",
                json: LoginRequest(login: "zoe", password: AccountsDriver.password, deviceToken: otherDevice)
            )
            #expect(borrowed.status == .tooManyRequests)
            let fromPhone = try await client.send(
                .post,
                "/v1/auth/login",
                json: LoginRequest(login: "zoe", password: AccountsDriver.password, deviceToken: phone)
            )
            #expect(fromPhone.status == .ok)
            let again = try await browser.submit(
                "/login",
                to: "/login",
                ["login": "zoe", "password": AccountsDriver.password]
            )
            #expect(again.status == .seeOther && again.headers[.location] == "/")
        }
    }

    /// Past the limit each attempt waits twice as long as the one before, from the newest failure: not 15 minutes.
    @Test func theLockIsABackOffThatEnds() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.limits.loginFailuresPerAccount = 3 }) { client, services in
            _ = try await AccountsDriver(client).signedIn("zoe")
            let start = Date()
            func attempt(_ password: String, after seconds: Double) async -> Int? {
                do {
                    _ = try await services.accounts.checkCredentials(
                        login: "zoe",
                        password: password,
                        client: "198.51.100.1",
                        now: start.addingTimeInterval(seconds)
                    )
                    return 0
                } catch let error as PlazaError {
                    return error.code == .rateLimited ? Int(error.headers[.retryAfter] ?? "") : -1
                } catch {
                    return nil
                }
            }
            for _ in 0..<3 { #expect(await attempt("wrong password!", after: 0) == -1) }
            #expect(await attempt("wrong password!", after: 0.5) == 1)
            #expect(await attempt("wrong password!", after: 1.2) == -1)  // the fourth failure: now 2 s
            #expect(await attempt("wrong password!", after: 2.0) == 2)
            #expect(await attempt(AccountsDriver.password, after: 3.3) == 0)
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
