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
                .patch, "/v1/me", json: ProfileUpdate(displayName: "Zoe B.", birthDate: "2000-05-01", gender: .female, student: true),
                token: tokens.accessToken)
            #expect(first.status == .ok)
            let second = try await client.send(.patch, "/v1/me", json: ProfileUpdate(student: false), token: tokens.accessToken)
            let user = try second.decode(User.self)
            #expect(user.displayName == "Zoe B." && user.birthDate == "2000-05-01" && user.gender == .female && !user.student)
            let cleared = try await client.send(.patch, "/v1/me", json: ProfileUpdate(birthDate: ""), token: tokens.accessToken)
            #expect(try cleared.decode(User.self).birthDate == nil)
            let bad = try await client.send(.patch, "/v1/me", json: ProfileUpdate(displayName: "", birthDate: "2020-01-01"), token: tokens.accessToken)
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
                .post, "/v1/me/password", json: ChangePasswordRequest(currentPassword: "not it at all", newPassword: "a brand new passphrase"),
                token: laptop.accessToken)
            #expect(wrong.problem?.errors?.first?.field == "currentPassword")
            let changed = try await client.send(
                .post, "/v1/me/password", json: ChangePasswordRequest(currentPassword: AccountsDriver.password, newPassword: "a brand new passphrase"),
                token: laptop.accessToken)
            #expect(changed.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: laptop.accessToken).status == .ok)
            #expect(try await client.send(.get, "/v1/me", token: phone.accessToken).status == .unauthorized)
            #expect(try await accounts.login("zoe").status == .unauthorized)
            #expect(try await accounts.login("zoe", password: "a brand new passphrase").status == .ok)
            #expect(try await accounts.mails(to: "zoe@example.com").first?.subject == "Your Plaza password was changed")
        }
    }

    @Test func changingTheAddressNeedsANewVerification() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let tokens = try await accounts.signedIn("zoe")
            try await accounts.register("max")
            let taken = try await client.send(
                .post, "/v1/me/email", json: ChangeEmailRequest(email: "max@example.com", password: AccountsDriver.password), token: tokens.accessToken)
            #expect(taken.status == .conflict)
            let moved = try await client.send(
                .post, "/v1/me/email", json: ChangeEmailRequest(email: "zoe@new.example", password: AccountsDriver.password), token: tokens.accessToken)
            let user = try moved.decode(User.self)
            #expect(user.email == "zoe@new.example" && !user.emailVerified)
            let code = try await accounts.latestCode(for: "zoe@new.example")
            let verified = try await client.send(.post, "/v1/auth/verify-email", json: VerifyEmailRequest(email: "zoe@new.example", code: code))
            #expect(try verified.decode(User.self).emailVerified)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func deletingTheAccountErasesItAndFreesTheNames(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let tokens = try await accounts.signedIn("zoe")
            let wrong = try await client.send(.delete, "/v1/me", json: DeleteAccountRequest(password: "not the password"), token: tokens.accessToken)
            #expect(wrong.status == .unprocessableContent)
            let deleted = try await client.send(.delete, "/v1/me", json: DeleteAccountRequest(password: AccountsDriver.password), token: tokens.accessToken)
            #expect(deleted.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: tokens.accessToken).status == .unauthorized)
            #expect(try await accounts.login("zoe").status == .unauthorized)
            #expect(try await accounts.register("zoe").status == .created)
        }
    }
}
