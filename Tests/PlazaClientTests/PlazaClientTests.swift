import Foundation
import HummingbirdTesting
import PlazaClient
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// The SDK against a real Plaza listening on loopback.
@Suite struct PlazaClientTests {
    static func withLiveClient(
        _ engine: TestEngine = .sqlite,
        store: any TokenStore = InMemoryTokenStore(),
        configure: (inout PlazaConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (PlazaClient, AccountsDriver) async throws -> Void
    ) async throws {
        try await TestPlaza.withApp(engine, .live, configure: configure) { client, _ in
            let port = try #require(client.port)
            let plaza = PlazaClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, tokenStore: store)
            try await body(plaza, AccountsDriver(client))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func signUpVerifyLogInAndOut(_ engine: TestEngine) async throws {
        try await Self.withLiveClient(engine) { plaza, mailbox in
            let user = try await plaza.register(
                RegisterRequest(
                    email: "zoe@example.com",
                    username: "zoe",
                    displayName: "Zoe",
                    password: AccountsDriver.password,
                    student: true
                )
            )
            #expect(!user.emailVerified && user.student)
            let verified = try await plaza.verifyEmail(
                "zoe@example.com",
                code: try await mailbox.latestCode(for: "zoe@example.com")
            )
            #expect(verified.emailVerified)

            let loggedIn = try await plaza.login("zoe", password: AccountsDriver.password, device: "Test iPhone")
            #expect(loggedIn.id == user.id)
            #expect(await plaza.isSignedIn)
            #expect(try await plaza.me().username == "zoe")
            #expect(try await plaza.updateProfile(ProfileUpdate(displayName: "Zoe B.")).displayName == "Zoe B.")
            let sessions = try await plaza.sessions()
            #expect(sessions.items.map(\.device) == ["Test iPhone"])

            try await plaza.logout()
            #expect(await !plaza.isSignedIn)
            await #expect(throws: PlazaClientError.notSignedIn) { try await plaza.me() }
        }
    }

    @Test func problemsCarryTheirCodeAndFields() async throws {
        try await Self.withLiveClient { plaza, _ in
            do {
                _ = try await plaza.register(
                    RegisterRequest(email: "nope", username: "zoe", displayName: "Zoe", password: "short")
                )
                Issue.record("registration with bad fields succeeded")
            } catch let error as PlazaClientError {
                #expect(error.code == .validationFailed)
                #expect(Set(error.fieldErrors.map(\.field)) == ["email", "password"])
                #expect(error.message(for: "email") != nil)
            }
            await #expect(throws: PlazaClientError.self) { try await plaza.login("zoe", password: "wrong password") }
            do {
                try await plaza.login("zoe", password: "wrong password")
            } catch let error as PlazaClientError {
                #expect(error.code == .invalidCredentials)
            }
        }
    }

    /// The SDK keeps the device token across log-outs: a stranger's wrong passwords do not keep the owner out.
    @Test func theOwnersDeviceSignsInWhileAStrangerGuesses() async throws {
        let store = InMemoryTokenStore()
        // A long back-off, so that the stranger is still held when a loaded machine gets to the next guess.
        try await Self.withLiveClient(store: store, configure: { $0.limits.loginBackOffBase = 60 }) { plaza, accounts in
            _ = try await accounts.signedIn("zoe")
            try await plaza.login("zoe", password: AccountsDriver.password)
            #expect(await store.loadDeviceToken() != nil)
            try await plaza.logout()
            for _ in 0..<12 { _ = try await accounts.login("zoe", password: "a stranger's guess") }
            #expect(try await accounts.login("zoe").problem?.code == .rateLimited)
            #expect(try await plaza.login("zoe", password: AccountsDriver.password).username == "zoe")
        }
    }

    @Test func anExpiredAccessTokenIsRefreshedOnceForManyCalls() async throws {
        try await Self.expectOneRefreshForManyCalls(store: InMemoryTokenStore())
    }

    /// A token store that takes its time (a keychain): callers pile up inside the token manager while it reads.
    actor SlowTokenStore: TokenStore {
        let base = InMemoryTokenStore()
        func load() async -> Tokens? {
            try? await Task.sleep(for: .milliseconds(5))
            return await base.load()
        }
        func save(_ tokens: Tokens?) async { await base.save(tokens) }
        func loadDeviceToken() async -> String? { await base.loadDeviceToken() }
        func saveDeviceToken(_ token: String) async { await base.saveDeviceToken(token) }
    }

    @Test func aSlowTokenStoreStillSeesOneRefreshForManyCalls() async throws {
        try await Self.expectOneRefreshForManyCalls(store: SlowTokenStore())
    }

    /// Twelve calls at once on an expired access token all succeed, with one refresh between them: were two refreshes
    /// sent with the same refresh token, the server would revoke the session and some of the calls would fail.
    static func expectOneRefreshForManyCalls(store: any TokenStore) async throws {
        try await withLiveClient(store: store) { plaza, mailbox in
            _ = try await mailbox.signedIn("zoe")
            try await plaza.login("zoe", password: AccountsDriver.password)
            var tokens = try #require(await store.load())
            tokens.accessTokenExpiresAt = Date().addingTimeInterval(-60)
            await store.save(tokens)
            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<12 { group.addTask { try await plaza.me().username } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(names == Array(repeating: "zoe", count: 12))
            let refreshed = try #require(await store.load())
            #expect(refreshed.refreshToken != tokens.refreshToken)
            #expect(try await plaza.me().username == "zoe")
        }
    }

    @Test func aRefusedAccessTokenIsRefreshedAndTheCallRetried() async throws {
        let store = InMemoryTokenStore()
        try await Self.withLiveClient(store: store) { plaza, mailbox in
            _ = try await mailbox.signedIn("zoe")
            try await plaza.login("zoe", password: AccountsDriver.password)
            var tokens = try #require(await store.load())
            tokens.accessToken = "forged.or.rotated.key"
            await store.save(tokens)
            #expect(try await plaza.me().username == "zoe")
        }
    }

    @Test func aRevokedSessionSignsTheClientOut() async throws {
        let store = InMemoryTokenStore()
        try await Self.withLiveClient(store: store) { plaza, mailbox in
            _ = try await mailbox.signedIn("zoe")
            try await plaza.login("zoe", password: AccountsDriver.password)
            let current = try #require(try await plaza.sessions().items.first { $0.current })
            try await plaza.revokeSession(current.id)
            await #expect(throws: PlazaClientError.notSignedIn) { try await plaza.me() }
            #expect(await store.load() == nil)
        }
    }

    @Test func passwordResetThroughTheSDK() async throws {
        try await Self.withLiveClient { plaza, mailbox in
            _ = try await mailbox.signedIn("zoe")
            try await plaza.forgotPassword(email: "zoe@example.com")
            let code = try await mailbox.latestCode(for: "zoe@example.com")
            try await plaza.resetPassword(email: "zoe@example.com", code: code, newPassword: "a fresh new passphrase")
            #expect(try await plaza.login("zoe@example.com", password: "a fresh new passphrase").username == "zoe")
            try await plaza.changePassword(current: "a fresh new passphrase", new: "and yet another one")
            try await plaza.deleteAccount(password: "and yet another one")
            await #expect(throws: PlazaClientError.self) {
                try await plaza.login("zoe", password: "and yet another one")
            }
        }
    }

    @Test func anUnreachableServerIsATransportError() async throws {
        let plaza = PlazaClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        do {
            _ = try await plaza.register(
                RegisterRequest(email: "a@b.co", username: "abc", displayName: "A", password: AccountsDriver.password)
            )
            Issue.record("a closed port answered")
        } catch let error as PlazaClientError {
            guard case .transport = error else {
                Issue.record("expected a transport error, got \(error)")
                return
            }
        }
    }
}
