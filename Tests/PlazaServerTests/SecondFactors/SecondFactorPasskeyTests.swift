import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Passkeys as second factors (issue 40): made from Plaza's options, proving a payment over Plaza's challenge, once.
extension SoftPasskey {
    init(_ relyingParty: WebAuthn.RelyingParty) {
        self.init(rpId: relyingParty.id, origin: relyingParty.origins[0])
    }
}

@Suite struct SecondFactorPasskeyTests {
    /// Options, then the passkey `passkey` makes from them, for `token`'s user; answering with `answer` if asked.
    static func add(
        _ passkey: SoftPasskey,
        _ client: any TestClientProtocol,
        token: String,
        answer: String? = nil
    ) async throws -> TestResponse {
        let options = try await client.send(
            .post,
            "/v1/me/second-factors/passkeys/options",
            token: token,
            headers: SecondFactorHelper.answering(answer)
        )
        let challenge = try options.decode(PasskeyRegistrationOptions.self).challenge
        return try await client.send(
            .post,
            "/v1/me/second-factors/passkeys",
            json: passkey.registration(challenge: challenge, name: "Phone"),
            token: token
        )
    }

    /// A fresh challenge signed by `passkey`, as `Plaza-Second-Factor` carries it.
    static func proof(
        _ passkey: SoftPasskey,
        _ client: any TestClientProtocol,
        token: String,
        counter: UInt32 = 0
    ) async throws -> String {
        let options = try await client.send(.post, "/v1/me/second-factors/challenge", token: token)
            .decode(PasskeyRequestOptions.self)
        #expect(options.allowCredentials.map(\.id).contains(passkey.id))
        return try passkey.assertion(challenge: options.challenge, counter: counter).answer
    }

    @Test(arguments: TestEngine.enabled)
    func aPasskeyIsMadeListedAndLetsMoneyOutOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            try await WalletDriver(client).fund(10_000, token: anna)
            let passkey = SoftPasskey(services.secondFactors.relyingParty)
            let options = try await client.send(.post, "/v1/me/second-factors/passkeys/options", token: anna)
                .decode(PasskeyRegistrationOptions.self)
            #expect(options.rp.id == services.secondFactors.relyingParty.id && options.attestation == "none")
            #expect(options.pubKeyCredParams.map(\.alg) == [-7] && options.user.name == "anna")
            let added = try await client.send(
                .post,
                "/v1/me/second-factors/passkeys",
                json: passkey.registration(challenge: options.challenge, name: "Anna's phone"),
                token: anna
            )
            #expect(added.status == .created)
            let passkeyAdded = try added.decode(PasskeyAdded.self)
            #expect(passkeyAdded.factor.kind == .passkey && passkeyAdded.factor.name == "Anna's phone")
            #expect(passkeyAdded.recoveryCodes.count == 10)
            let list = try await client.send(.get, "/v1/me/second-factors", token: anna).decode(SecondFactorList.self)
            #expect(list.items.map(\.kind) == [.passkey] && list.recoveryCodesLeft == 10)

            let asked = try await SecondFactorTests.withdraw(client, 100, answer: nil, token: anna)
            #expect(asked.problem?.code == .secondFactorRequired)
            #expect(asked.problem?.factors == [SecondFactorRef(id: passkeyAdded.factor.id, kind: .passkey)])
            let answer = try await Self.proof(passkey, client, token: anna)
            #expect(try await SecondFactorTests.withdraw(client, 100, answer: answer, token: anna).status == .created)
            let replay = try await SecondFactorTests.withdraw(client, 100, answer: answer, token: anna)
            #expect(replay.status == .forbidden && replay.problem?.code == .invalidCode)
            #expect(try await WalletDriver(client).balance(token: anna) == 9_900)
            let used = try await client.send(.get, "/v1/me/second-factors", token: anna).decode(SecondFactorList.self)
            #expect(used.items.first?.lastUsedAt != nil)
            let inbox = try await client.send(.get, "/v1/inbox", token: anna).text
            #expect(inbox.contains("A passkey: Anna's phone."))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aProofCountsOnlyForPlazasOwnChallengeOriginAndKey(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let ben = try await accounts.signedIn("ben").accessToken
            try await WalletDriver(client).fund(10_000, token: anna)
            let passkey = SoftPasskey(services.secondFactors.relyingParty)
            #expect(try await Self.add(passkey, client, token: anna).status == .created)
            let benPasskey = SoftPasskey(services.secondFactors.relyingParty)
            #expect(try await Self.add(benPasskey, client, token: ben).status == .created)

            func refused(_ answer: String) async throws -> Bool {
                let response = try await SecondFactorTests.withdraw(client, 100, answer: answer, token: anna)
                return response.status == .forbidden && response.problem?.code == .invalidCode
            }
            func challenge(_ token: String) async throws -> String {
                try await client.send(.post, "/v1/me/second-factors/challenge", token: token)
                    .decode(PasskeyRequestOptions.self).challenge
            }
            // A challenge Plaza never gave, another person's, a phishing page's origin, another site's passkey
            // scope, another key's signature: each fails, and none spends the real challenge.
            let made = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64URLEncodedString()
            #expect(try await refused(passkey.assertion(challenge: made).answer))
            #expect(try await refused(passkey.assertion(challenge: try await challenge(ben)).answer))
            let real = try await challenge(anna)
            #expect(try await refused(passkey.assertion(challenge: real, origin: "https://plaza.example.evil").answer))
            #expect(try await refused(passkey.assertion(challenge: real, rpId: "evil.example").answer))
            #expect(try await refused(passkey.assertion(challenge: real, signer: P256.Signing.PrivateKey()).answer))
            #expect(try await refused(benPasskey.assertion(challenge: real).answer))
            #expect(try await refused("passkey not-base64!"))
            // The counter moves forward only: a clone's older count fails.
            #expect(
                try await SecondFactorTests.withdraw(
                    client,
                    100,
                    answer: passkey.assertion(challenge: real, counter: 5).answer,
                    token: anna
                ).status == .created
            )
            #expect(try await refused(try await Self.proof(passkey, client, token: anna, counter: 3)))
            #expect(try await refused(try await Self.proof(passkey, client, token: anna, counter: 0)))
            let later = try await Self.proof(passkey, client, token: anna, counter: 6)
            #expect(try await SecondFactorTests.withdraw(client, 100, answer: later, token: anna).status == .created)
            #expect(try await WalletDriver(client).balance(token: anna) == 9_800)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aRegistrationIsCheckedAndTheSecondAsksTheFirst(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let relyingParty = services.secondFactors.relyingParty
            let passkey = SoftPasskey(relyingParty)
            func options(_ answer: String? = nil) async throws -> TestResponse {
                try await client.send(
                    .post,
                    "/v1/me/second-factors/passkeys/options",
                    token: anna,
                    headers: SecondFactorHelper.answering(answer)
                )
            }
            func register(_ registration: PasskeyRegistration) async throws -> TestResponse {
                try await client.send(.post, "/v1/me/second-factors/passkeys", json: registration, token: anna)
            }
            let first = try await options().decode(PasskeyRegistrationOptions.self).challenge
            let phished = try await register(passkey.registration(challenge: first, origin: "https://evil.example"))
            #expect(phished.status == .forbidden && phished.problem?.code == .invalidCode)
            let elsewhere = try await register(passkey.registration(challenge: first, rpId: "evil.example"))
            #expect(elsewhere.status == .forbidden && elsewhere.problem?.code == .invalidCode)
            let garbled = try await register(
                PasskeyRegistration(
                    credential: .init(id: "x", response: .init(clientDataJSON: "%%", attestationObject: "%%"))
                )
            )
            #expect(garbled.status == .unprocessableContent && garbled.problem?.errors?.first?.field == "credential")
            #expect(try await register(passkey.registration(challenge: first)).status == .created)
            // Its challenge is spent.
            let again = try await register(SoftPasskey(relyingParty).registration(challenge: first))
            #expect(again.status == .forbidden && again.problem?.code == .invalidCode)

            // A second passkey asks the first one, and lists it so the browser makes no duplicate.
            let asked = try await options()
            #expect(asked.status == .forbidden && asked.problem?.code == .secondFactorRequired)
            let next = try await options(try await Self.proof(passkey, client, token: anna, counter: 1))
            let nextOptions = try next.decode(PasskeyRegistrationOptions.self)
            #expect(nextOptions.excludeCredentials.map(\.id) == [passkey.id])
            let duplicate = try await register(passkey.registration(challenge: nextOptions.challenge))
            #expect(duplicate.status == .conflict)
            let laptop = SoftPasskey(relyingParty)
            let added = try await register(laptop.registration(challenge: nextOptions.challenge, name: "Laptop"))
            #expect(added.status == .created)
            #expect(try added.decode(PasskeyAdded.self).recoveryCodes.isEmpty)
            let list = try await client.send(.get, "/v1/me/second-factors", token: anna).decode(SecondFactorList.self)
            #expect(list.items.map(\.kind) == [.passkey, .passkey] && list.recoveryCodesLeft == 10)
        }
    }

    /// Two payments sent at once with one proof: exactly one goes.
    @Test(arguments: TestEngine.enabled)
    func twoPaymentsWithOneProofHaveOneWinner(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("ben")
            let wallet = WalletDriver(client)
            try await wallet.fund(25_000, token: anna)
            let passkey = SoftPasskey(services.secondFactors.relyingParty)
            #expect(try await Self.add(passkey, client, token: anna).status == .created)
            let answer = try await Self.proof(passkey, client, token: anna, counter: 1)
            let statuses = try await SecondFactorHelper.twoTransfers(client, token: anna, answer: answer)
            #expect(statuses == [201, 403])
            #expect(try await wallet.balance(token: anna) == 15_000)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func anAnswerLongerThanTheContractsIsRefusedAndLiteralPathsKeepTheirMethods(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let long = String(repeating: "0", count: 4_097)
            let refused = try await client.send(
                .post,
                "/v1/me/second-factors/totp",
                token: anna,
                headers: SecondFactorHelper.answering(long)
            )
            #expect(refused.status == .forbidden && refused.problem?.code == .invalidCode)
            // `challenge` is a path of its own, not the `{id}` of DELETE /v1/me/second-factors/{id}.
            let wrong = try await client.send(.get, "/v1/me/second-factors/challenge", token: anna)
            #expect(wrong.status == .methodNotAllowed && wrong.headers[.allow] == "POST")
        }
    }

    @Test func theRelyingPartyIsThePublicHostOrLocalhost() {
        let public_ = WebAuthn.RelyingParty(publicURL: URL(string: "https://plaza.example/"), port: 8080)
        #expect(public_.id == "plaza.example" && public_.origins == ["https://plaza.example"])
        let port = WebAuthn.RelyingParty(publicURL: URL(string: "http://town.example:8443"), port: 8080)
        #expect(port.origins == ["http://town.example:8443"])
        let local = WebAuthn.RelyingParty(publicURL: nil, port: 8080)
        #expect(local.id == "localhost" && local.origins == ["http://localhost:8080"])
    }

    @Test func cborRefusesWhatWebAuthnNeverSends() throws {
        #expect(throws: CBOR.Malformed.self) { try CBOR.decode([0x9f, 0x01, 0xff]) }  // indefinite array
        #expect(throws: CBOR.Malformed.self) { try CBOR.decode([0x5a, 0xff, 0xff, 0xff, 0xff]) }  // 4 GB string
        #expect(throws: CBOR.Malformed.self) { try CBOR.decode([0x9b] + [UInt8](repeating: 0xff, count: 8)) }
        #expect(throws: CBOR.Malformed.self) { try CBOR.decode([UInt8](repeating: 0x81, count: 40) + [0x01]) }
        #expect(throws: CBOR.Malformed.self) { try CBOR.decode([0x01, 0x02]) }  // trailing bytes
        #expect(try CBOR.decode([0xa1, 0x20, 0x01])[.negative(0)]?.integer == 1)
    }
}
