import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

@Suite struct TokenTests {
    @Test(arguments: TestEngine.enabled)
    func refreshRotatesAndReuseRevokesTheSession(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let first = try await AccountsDriver(client).signedIn("zoe")
            let refreshed = try await client.send(
                .post,
                "/v1/auth/refresh",
                json: RefreshRequest(refreshToken: first.refreshToken)
            )
            #expect(refreshed.status == .ok)
            let second = try refreshed.decode(TokenResponse.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(try await client.send(.get, "/v1/me", token: second.accessToken).status == .ok)

            // A thief replays the first refresh token: both the thief and the owner are signed out.
            let replay = try await client.send(
                .post,
                "/v1/auth/refresh",
                json: RefreshRequest(refreshToken: first.refreshToken)
            )
            #expect(replay.status == .unauthorized)
            #expect(replay.problem?.code == .invalidToken)
            #expect(
                try await client.send(
                    .post,
                    "/v1/auth/refresh",
                    json: RefreshRequest(refreshToken: second.refreshToken)
                ).status == .unauthorized
            )
            #expect(try await client.send(.get, "/v1/me", token: second.accessToken).status == .unauthorized)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func concurrentRefreshesWithOneTokenHaveOneWinner(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let tokens = try await AccountsDriver(client).signedIn("zoe")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await client.send(
                            .post,
                            "/v1/auth/refresh",
                            json: RefreshRequest(refreshToken: tokens.refreshToken)
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count <= 1)
            #expect(statuses.filter { $0 == .unauthorized }.count >= 5)
        }
    }

    /// Tokens not yet in the identity cache have their sessions read together; every caller must still get its own
    /// account, and a signed-out session none.
    @Test(arguments: TestEngine.enabled)
    func manyTokensAtOnceEachGetTheirOwnAccount(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let names = ["ada", "ben", "cleo", "dov", "eli", "fay"]
            var tokens: [(name: String, token: String)] = []
            for name in names { tokens.append((name, try await AccountsDriver(client).signedIn(name).accessToken)) }
            let gone = try await AccountsDriver(client).signedIn("gus").accessToken
            #expect(try await client.send(.post, "/v1/auth/logout", token: gone).status == .noContent)
            let answers = try await withThrowingTaskGroup(of: (String, HTTPResponse.Status, String?).self) { group in
                for round in 0..<4 {
                    for (name, token) in tokens + [("gus", gone)] {
                        group.addTask {
                            let response = try await client.send(.get, "/v1/me", token: token)
                            return (
                                "\(name) \(round)", response.status,
                                response.status == .ok ? try response.decode(User.self).username : nil
                            )
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 28)
            for (caller, status, username) in answers {
                let name = String(caller.split(separator: " ")[0])
                if name == "gus" {
                    #expect(status == .unauthorized, "\(caller)")
                } else {
                    #expect(status == .ok && username == name, "\(caller) got \(status) as \(username ?? "nobody")")
                }
            }
        }
    }

    /// A client whose token expired must still reach what anyone may: the map, sign-up, a password reset.
    @Test func publicOperationsIgnoreAStaleToken() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let stale = "expired.or.forged"
            #expect(try await client.send(.get, "/v1/businesses?q=bakery", token: stale).status == .ok)
            let forgot = try await client.send(
                .post,
                "/v1/auth/forgot-password",
                json: EmailRequest(email: "zoe@example.com"),
                token: stale
            )
            #expect(forgot.status == .accepted || forgot.status == .noContent)
            let registration = try await client.send(
                .post,
                "/v1/auth/register",
                json: RegisterRequest(
                    email: "zoe@example.com",
                    username: "zoe",
                    displayName: "Zoe",
                    password: AccountsDriver.password,
                    role: .customer
                ),
                token: stale
            )
            #expect(registration.status == .created)
            // What needs a user still says why it refused, so the SDK knows to refresh.
            let me = try await client.send(.get, "/v1/me", token: stale)
            #expect(me.status == .unauthorized && me.problem?.code == .invalidToken)
            #expect(me.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
            #expect(try await client.send(.get, "/v1/me").problem?.code == .unauthorized)
        }
    }

    @Test func garbageRefreshTokensAreRefused() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let response = try await client.send(
                .post,
                "/v1/auth/refresh",
                json: RefreshRequest(refreshToken: "nonsense")
            )
            #expect(response.status == .unauthorized)
            #expect(response.problem?.code == .invalidToken)
        }
    }

    @Test func expiredAndForgedAccessTokensAreRefused() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let tokens = try await AccountsDriver(client).signedIn("zoe")
            let sessionID = try #require(await services.accounts.tokens.verify(tokens.accessToken)?.sessionID)
            let expired = try await services.accounts.tokens.issue(
                userID: tokens.user.id,
                sessionID: sessionID,
                now: Date().addingTimeInterval(-3600)
            )
            let response = try await client.send(.get, "/v1/me", token: expired)
            #expect(response.status == .unauthorized)
            #expect(response.problem?.code == .invalidToken)
            #expect(response.headers[.wwwAuthenticate]?.contains("invalid_token") == true)

            let forger = await AccessTokens(secretKey: "another-secret-that-is-long-enough-000000", lifetime: 900)
            let forged = try await forger.issue(userID: tokens.user.id, sessionID: sessionID)
            #expect(try await client.send(.get, "/v1/me", token: forged).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/me", token: tokens.accessToken + "x").status == .unauthorized)
        }
    }

    @Test func routesForSignedInUsersRefuseAnonymousCalls() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let response = try await client.send(.get, "/v1/me")
            #expect(response.status == .unauthorized)
            #expect(response.problem?.code == .unauthorized)
        }
    }
}
