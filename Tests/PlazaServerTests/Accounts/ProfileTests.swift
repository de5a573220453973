import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct ProfileTests {
    @Test(arguments: TestEngine.enabled)
    func profileChangesOnlyTheGivenFields(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let tokens = try await AccountsDriver(client).signedIn("zoe")
            let first = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Zoe B.", birthDate: "2000-05-01", gender: .female, student: true),
                token: tokens.accessToken
            )
            #expect(first.status == .ok)
            let second = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(student: false),
                token: tokens.accessToken
            )
            let user = try second.decode(User.self)
            #expect(
                user.displayName == "Zoe B." && user.birthDate == "2000-05-01" && user.gender == .female
                    && !user.student
            )
            let cleared = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(birthDate: ""),
                token: tokens.accessToken
            )
            #expect(try cleared.decode(User.self).birthDate == nil)
            let bad = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "", birthDate: "2020-01-01"),
                token: tokens.accessToken
            )
            #expect(Set(bad.problem?.errors?.map(\.field) ?? []) == ["displayName", "birthDate"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func changingThePasswordSignsOutOtherDevices(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let phone = try await accounts.signedIn("zoe")
            let laptop = try await accounts.login("zoe").decode(TokenResponse.self)
            let wrong = try await client.send(
                .post,
                "/v1/me/password",
                json: ChangePasswordRequest(currentPassword: "not it at all", newPassword: "a brand new passphrase"),
                token: laptop.accessToken
            )
            #expect(wrong.problem?.errors?.first?.field == "currentPassword")
            let changed = try await client.send(
                .post,
                "/v1/me/password",
                json: ChangePasswordRequest(
                    currentPassword: AccountsDriver.password,
                    newPassword: "a brand new passphrase"
                ),
                token: laptop.accessToken
            )
            #expect(changed.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: laptop.accessToken).status == .ok)
            #expect(try await client.send(.get, "/v1/me", token: phone.accessToken).status == .unauthorized)
            #expect(try await accounts.login("zoe").status == .unauthorized)
            #expect(try await accounts.login("zoe", password: "a brand new passphrase").status == .ok)
            // (A sign-in alert may be mailed after it: the log-in just above came from a "new" device.)
            #expect(
                try await accounts.mails(to: "zoe@example.com").contains {
                    $0.subject == "Your Plaza password was changed"
                }
            )
        }
    }

    /// The new address is confirmed with a code mailed to it; until then the old one stays. Whether another account has
    /// the address is not told: the answer is the same, and that address gets a notice instead of a code.
    @Test func changingTheAddressIsConfirmedFromTheNewAddressAndTellsNothingOfOthers() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let tokens = try await accounts.signedIn("zoe")
            _ = try await accounts.signedIn("max")
            func change(to email: String) async throws -> TestResponse {
                try await client.send(
                    .post,
                    "/v1/me/email",
                    json: ChangeEmailRequest(email: email, password: AccountsDriver.password),
                    token: tokens.accessToken
                )
            }
            let taken = try await change(to: "max@example.com")
            let free = try await change(to: "zoe@new.example")
            #expect(taken.status == .ok && free.status == .ok && taken.text == free.text)
            #expect(try free.decode(User.self).email == "zoe@example.com")
            #expect(
                try await accounts.mails(to: "max@example.com").first?.subject
                    == "Someone asked to use your address for another account"
            )
            #expect(try await client.send(.get, "/v1/me", token: tokens.accessToken).decode(User.self).emailVerified)

            let code = try await accounts.latestCode(for: "zoe@new.example")
            let verified = try await client.send(
                .post,
                "/v1/auth/verify-email",
                json: VerifyEmailRequest(email: "zoe@new.example", code: code)
            )
            let user = try verified.decode(User.self)
            #expect(user.email == "zoe@new.example" && user.emailVerified)
            #expect(try await accounts.login("zoe@new.example").status == .ok)
        }
    }

    /// Someone's pending move to an address must not keep that address's rightful new account from verifying.
    @Test func aPendingChangeToAnAddressDoesNotBlockItsSignUp() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let mallory = try await accounts.signedIn("mallory")
            _ = try await client.send(
                .post,
                "/v1/me/email",
                json: ChangeEmailRequest(email: "vera@example.com", password: AccountsDriver.password),
                token: mallory.accessToken
            )
            #expect(try await accounts.register("vera").status == .created)
            let verified = try await accounts.verify("vera")
            let vera = try verified.decode(User.self)
            #expect(verified.status == .ok && vera.username == "vera")
        }
    }

    /// Probing addresses through the change of e-mail is limited per account, not only per address.
    @Test func changesOfAddressAreLimitedPerAccount() async throws {
        try await TestPlaza.withApp(.sqlite, configure: { $0.limits.codeMailsPerAccount = 3 }) { client, _ in
            let tokens = try await AccountsDriver(client).signedIn("zoe")
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<5 {
                statuses.append(
                    try await client.send(
                        .post,
                        "/v1/me/email",
                        json: ChangeEmailRequest(email: "probe\(index)@example.org", password: AccountsDriver.password),
                        token: tokens.accessToken
                    ).status
                )
            }
            #expect(statuses == [.ok, .ok, .ok, .tooManyRequests, .tooManyRequests])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func deletingTheAccountErasesItAndKeepsTheUsername(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let tokens = try await accounts.signedIn("zoe")
            let wrong = try await client.send(
                .delete,
                "/v1/me",
                json: DeleteAccountRequest(password: "not the password"),
                token: tokens.accessToken
            )
            #expect(wrong.status == .unprocessableContent)
            let deleted = try await client.send(
                .delete,
                "/v1/me",
                json: DeleteAccountRequest(password: AccountsDriver.password),
                token: tokens.accessToken
            )
            #expect(deleted.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: tokens.accessToken).status == .unauthorized)
            #expect(try await accounts.login("zoe").status == .unauthorized)
            // The name stays taken, so nobody's old history comes to point at a stranger.
            let again = try await accounts.register("zoe")
            #expect(again.status == .conflict && again.problem?.errors?.first?.field == "username")
        }
    }
}
