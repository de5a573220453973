import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct IdempotencyTests {
    static func changeEmail(
        _ client: any TestClientProtocol,
        token: String,
        to email: String,
        key: String?
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return try await client.send(
            .post,
            "/v1/me/email",
            json: ChangeEmailRequest(email: email, password: AccountsDriver.password),
            token: token,
            headers: headers
        )
    }

    @Test(arguments: TestEngine.enabled)
    func aRetryWithTheSameKeyReplaysTheAnswerAndActsOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let accounts = AccountsDriver(client)
            let tokens = try await accounts.signedIn("zoe")
            let first = try await Self.changeEmail(
                client,
                token: tokens.accessToken,
                to: "zoe@new.example",
                key: "key-1"
            )
            let retry = try await Self.changeEmail(
                client,
                token: tokens.accessToken,
                to: "zoe@new.example",
                key: "key-1"
            )
            #expect(first.status == .ok && retry.status == .ok)
            #expect(retry.text == first.text)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await accounts.mails(to: "zoe@new.example").count == 1)

            let otherBody = try await Self.changeEmail(
                client,
                token: tokens.accessToken,
                to: "zoe@other.example",
                key: "key-1"
            )
            #expect(otherBody.status == .unprocessableContent)
            #expect(otherBody.problem?.code == .idempotencyKeyReused)
        }
    }

    @Test func withoutAKeyEveryRequestActs() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let tokens = try await accounts.signedIn("zoe")
            _ = try await Self.changeEmail(client, token: tokens.accessToken, to: "zoe@new.example", key: nil)
            _ = try await Self.changeEmail(client, token: tokens.accessToken, to: "zoe@new.example", key: nil)
            #expect(try await accounts.mails(to: "zoe@new.example").count == 2)
        }
    }

    @Test func keysBelongToOneUser() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let zoe = try await accounts.signedIn("zoe")
            let max = try await accounts.signedIn("max")
            let zoes = try await Self.changeEmail(client, token: zoe.accessToken, to: "zoe@new.example", key: "shared")
            let maxs = try await Self.changeEmail(client, token: max.accessToken, to: "max@new.example", key: "shared")
            #expect(zoes.status == .ok && maxs.status == .ok)
            #expect(try maxs.decode(User.self).username == "max")
            #expect(try await accounts.mails(to: "max@new.example").count == 1)
        }
    }

    @Test func problemsAreReplayedToo() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let tokens = try await AccountsDriver(client).signedIn("zoe")
            let first = try await Self.changeEmail(client, token: tokens.accessToken, to: "not an address", key: "bad")
            let retry = try await Self.changeEmail(client, token: tokens.accessToken, to: "not an address", key: "bad")
            #expect(first.status == .unprocessableContent && retry.status == .unprocessableContent)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
        }
    }
}
