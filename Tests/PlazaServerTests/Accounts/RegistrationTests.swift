import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct RegistrationTests {
    @Test(arguments: TestEngine.enabled)
    func signUpVerifyLogInAndOut(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let registered = try await accounts.register("zoe")
            #expect(registered.status == .created)
            let user = try registered.decode(User.self)
            #expect(user.username == "zoe" && user.email == "zoe@example.com" && !user.emailVerified)

            let verified = try await accounts.verify("zoe")
            #expect(verified.status == .ok)
            #expect(try verified.decode(User.self).emailVerified)

            let login = try await accounts.login("ZOE@example.com")
            #expect(login.status == .ok)
            let tokens = try login.decode(TokenResponse.self)
            #expect(tokens.expiresIn == 900)
            let me = try await client.send(.get, "/v1/me", token: tokens.accessToken)
            #expect(try me.decode(User.self).id == user.id)

            #expect(try await client.send(.post, "/v1/auth/logout", token: tokens.accessToken).status == .noContent)
            let after = try await client.send(.get, "/v1/me", token: tokens.accessToken)
            #expect(after.status == .unauthorized)
            #expect(after.problem?.code == .invalidToken)
        }
    }

    @Test func registrationNamesEveryFieldAtFault() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let response = try await client.send(
                .post,
                "/v1/auth/register",
                json: RegisterRequest(
                    email: "not-an-address",
                    username: "X!",
                    displayName: "",
                    password: "short",
                    role: .admin
                )
            )
            #expect(response.status == .unprocessableContent)
            let problem = try #require(response.problem)
            #expect(problem.code == .validationFailed)
            #expect(
                Set(problem.errors?.map(\.field) ?? []) == ["email", "username", "displayName", "password", "role"]
            )
        }
    }

    @Test func missingAndMistypedFieldsAreNamed() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let missing = try await client.sendRaw(
                .post,
                "/v1/auth/register",
                body: #"{"email":"a@b.co","username":"abc"}"#
            )
            #expect(missing.status == .unprocessableContent)
            #expect(missing.problem?.errors?.first?.field == "displayName")
            let mistyped = try await client.sendRaw(
                .post,
                "/v1/auth/register",
                body:
                    #"{"email":"a@b.co","username":"abc","displayName":"A","password":"long enough pw","role":"customer","student":"yes"}"#
            )
            #expect(mistyped.problem?.errors?.first?.field == "student")
            let badRole = try await client.sendRaw(
                .post,
                "/v1/auth/register",
                body:
                    #"{"email":"a@b.co","username":"abc","displayName":"A","password":"long enough pw","role":"king"}"#
            )
            #expect(badRole.problem?.errors?.first?.field == "role")
        }
    }

    @Test func commonPasswordsAreRefused() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let response = try await AccountsDriver(client).register("zoe", password: "qwertyuiop")
            #expect(response.status == .unprocessableContent)
            #expect(response.problem?.errors?.first?.field == "password")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func usernamesAreUniqueWhateverTheCase(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            try await AccountsDriver(client).register("zoe")
            let again = try await client.send(
                .post,
                "/v1/auth/register",
                json: RegisterRequest(
                    email: "other@example.com",
                    username: "ZOE",
                    displayName: "Other",
                    password: AccountsDriver.password
                )
            )
            #expect(again.status == .conflict)
            #expect(again.problem?.errors?.first?.field == "username")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aTakenAddressGetsTheSameAnswerAndItsOwnerIsWarned(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("zoe")
            let again = try await client.send(
                .post,
                "/v1/auth/register",
                json: RegisterRequest(
                    email: "Zoe@Example.com",
                    username: "zoe2",
                    displayName: "Impostor",
                    password: AccountsDriver.password
                )
            )
            #expect(again.status == .created)
            #expect(
                try await accounts.mails(to: "zoe@example.com").first?.subject
                    == "Someone tried to sign up with your address"
            )
            // The impostor cannot log in with the address: the account is still Zoe's.
            #expect(try await accounts.login("zoe2").status == .unauthorized)
        }
    }

    /// Everything a stranger can do after signing up with an address answers alike whether the address was free or
    /// taken: the sign-up, logging in with it, and signing up again with the same username.
    @Test(arguments: TestEngine.enabled)
    func aSignUpTellsNothingOfWhetherTheAddressWasTaken(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            _ = try await accounts.signedIn("zoe")
            func probe(_ email: String, as username: String) async throws -> [String] {
                let signUp = try await client.send(
                    .post,
                    "/v1/auth/register",
                    json: RegisterRequest(
                        email: email,
                        username: username,
                        displayName: "Probe",
                        password: "the prober's own passphrase"
                    )
                )
                let byName = try await accounts.login(username, password: "the prober's own passphrase")
                let byAddress = try await accounts.login(email, password: "the prober's own passphrase")
                let again = try await client.send(
                    .post,
                    "/v1/auth/register",
                    json: RegisterRequest(
                        email: "other-\(username)@example.net",
                        username: username,
                        displayName: "Probe",
                        password: AccountsDriver.password
                    )
                )
                func shape(_ response: TestResponse) -> String {
                    "\(response.status.code) \(response.problem?.code.rawValue ?? "-")"
                }
                return [shape(signUp), shape(byName), shape(byAddress), shape(again)]
            }
            let taken = try await probe("zoe@example.com", as: "probe1")
            let free = try await probe("nobody-yet@example.com", as: "probe2")
            #expect(taken == free)
            #expect(taken == ["201 -", "401 invalid_credentials", "401 invalid_credentials", "409 conflict"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func manySimultaneousSignUpsAllSucceed(_ engine: TestEngine) async throws {
        // All 24 come from one test address: lift the per-address sign-up limit (20), which this test is not about
        // and which a burst could hit depending on how checks and records interleave.
        try await TestPlaza.withApp(engine, configure: { $0.limits.signupsPerAddress = 100 }) { client, _ in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<24 {
                    group.addTask { try await AccountsDriver(client).register("user\(index)").status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .created })
        }
    }
}
