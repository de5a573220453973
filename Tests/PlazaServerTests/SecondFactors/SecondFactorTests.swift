import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

@Suite struct SecondFactorTests {
    static func withdraw(
        _ client: any TestClientProtocol,
        _ amount: Int64,
        answer: String?,
        key: String = UUID().uuidString,
        token: String
    )
        async throws -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/wallet/withdrawals",
            json: WithdrawalRequest(amount: amount, currency: "USD"),
            token: token,
            headers: SecondFactorHelper.answering(answer, key: key)
        )
    }

    @Test(arguments: TestEngine.enabled)
    func anAppIsSetUpConfirmedAndListedWithTenRecoveryCodes(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, _ in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let started = try await client.send(.post, "/v1/me/second-factors/totp", token: anna)
            #expect(started.status == .created)
            let setup = try started.decode(TOTPSetup.self)
            #expect(setup.otpauthUrl.hasPrefix("otpauth://totp/Plaza:anna?secret=\(setup.secret)"))
            // Unconfirmed, it does not count: withdrawing still says to set one up.
            let early = try await Self.withdraw(client, 100, answer: nil, token: anna)
            #expect(early.status == .forbidden && early.problem?.code == .secondFactorRequired)
            #expect(early.problem?.factors == [])
            #expect(
                try await client.send(.get, "/v1/me/second-factors", token: anna).decode(SecondFactorList.self).items
                    .isEmpty
            )

            let wrong = try await client.send(
                .post,
                "/v1/me/second-factors/totp/confirm",
                json: TOTPConfirmRequest(code: "000000"),
                token: anna
            )
            #expect(wrong.status == .forbidden && wrong.problem?.code == .invalidCode)
            let secret = try #require(Base32.decode(setup.secret))
            let code = SecondFactorHelper.code(secret)
            let confirmed = try await client.send(
                .post,
                "/v1/me/second-factors/totp/confirm",
                json: TOTPConfirmRequest(code: code),
                token: anna
            )
            #expect(confirmed.status == .ok)
            let codes = try confirmed.decode(RecoveryCodes.self)
            #expect(codes.recoveryCodes.count == 10 && Set(codes.recoveryCodes).count == 10 && !codes.replaced)
            let list = try await client.send(.get, "/v1/me/second-factors", token: anna).decode(SecondFactorList.self)
            #expect(list.items.map(\.kind) == [.totp] && list.recoveryCodesLeft == 10)

            // The code that confirmed the app was used: it does not let money out as well.
            let replay = try await Self.withdraw(client, 100, answer: code, token: anna)
            #expect(replay.status == .forbidden && replay.problem?.code == .invalidCode)
            let asked = try await Self.withdraw(client, 100, answer: nil, token: anna)
            #expect(asked.problem?.factors == list.items.map { SecondFactorRef(id: $0.id, kind: .totp) })
            let inbox = try await client.send(.get, "/v1/inbox", token: anna).text
            #expect(inbox.contains("A second factor was added to your account."))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aCodePassesOnceAndARecoveryCodeOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            try await WalletDriver(client).fund(10_000, token: anna)
            let (secret, recovery) = try await SecondFactorHelper(client: client, services: services).enroll(
                token: anna
            )
            let code = SecondFactorHelper.code(secret)
            #expect(try await Self.withdraw(client, 100, answer: code, token: anna).status == .created)
            let again = try await Self.withdraw(client, 100, answer: code, token: anna)
            #expect(again.status == .forbidden && again.problem?.code == .invalidCode)
            #expect(again.problem?.errors?.first?.field == "code")

            let lowercase = recovery[0].lowercased()
            #expect(try await Self.withdraw(client, 100, answer: lowercase, token: anna).status == .created)
            let used = try await Self.withdraw(client, 100, answer: recovery[0], token: anna)
            #expect(used.status == .forbidden && used.problem?.code == .invalidCode)
            let list = try await client.send(.get, "/v1/me/second-factors", token: anna).decode(SecondFactorList.self)
            #expect(list.recoveryCodesLeft == 9)
            #expect(try await WalletDriver(client).balance(token: anna) == 9_800)
        }
    }

    /// The code of the step before passes (typed as it changed); one two steps back does not; and a step passes once.
    @Test(arguments: TestEngine.enabled)
    func theWindowIsThisStepAndTheOneBefore(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let (secret, _) = try await SecondFactorHelper(client: client, services: services).enroll(token: anna)
            let identity = try #require(try await services.accounts.identity(bearer: anna))
            let gate = services.secondFactors
            let now = Date().addingTimeInterval(600)
            func passes(_ answer: String, at date: Date) async -> PlazaError? {
                do {
                    try await SecondFactorAnswer.$current.withValue(answer) {
                        try await gate.require(identity, for: .withdrawal, now: date)
                    }
                    return nil
                } catch let error as PlazaError {
                    return error
                } catch {
                    return PlazaError.malformed("\(error)")
                }
            }
            let twoBack = SecondFactorHelper.code(secret, at: now.addingTimeInterval(-60))
            let before = SecondFactorHelper.code(secret, at: now.addingTimeInterval(-30))
            #expect(await passes(twoBack, at: now)?.code == .invalidCode)
            #expect(await passes(before, at: now) == nil)
            #expect(await passes(before, at: now)?.code == .invalidCode)
            // A later step still passes after the one before it was used.
            #expect(await passes(SecondFactorHelper.code(secret, at: now), at: now) == nil)
            #expect(await passes("12345", at: now)?.code == .invalidCode)
            #expect(await passes("passkey e30", at: now)?.code == .invalidCode)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func wrongCodesAreLimited(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            _ = try await SecondFactorHelper(client: client, services: services).enroll(token: anna)
            for _ in 0..<10 {
                #expect(
                    try await Self.withdraw(client, 100, answer: "AAAAA-AAAAA", token: anna).problem?.code
                        == .invalidCode
                )
            }
            let limited = try await Self.withdraw(client, 100, answer: "AAAAA-AAAAA", token: anna)
            #expect(limited.status == .tooManyRequests && limited.problem?.code == .rateLimited)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func removingAFactorAsksForOneAndTakesTheRecoveryCodesWithTheLast(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let (secret, _) = try await SecondFactorHelper(client: client, services: services).enroll(token: anna)
            let list = try await client.send(.get, "/v1/me/second-factors", token: anna).decode(SecondFactorList.self)
            let id = try #require(list.items.first?.id)
            let bare = try await client.send(.delete, "/v1/me/second-factors/\(id)", token: anna)
            #expect(bare.status == .forbidden && bare.problem?.code == .secondFactorRequired)
            let removed = try await client.send(
                .delete,
                "/v1/me/second-factors/\(id)",
                token: anna,
                headers: SecondFactorHelper.answering(SecondFactorHelper.code(secret))
            )
            #expect(removed.status == .noContent)
            let after = try await client.send(.get, "/v1/me/second-factors", token: anna).decode(SecondFactorList.self)
            #expect(after.items.isEmpty && after.recoveryCodesLeft == 0)
            let gone = try await client.send(.delete, "/v1/me/second-factors/\(id)", token: anna)
            #expect(gone.status == .notFound)
            let inbox = try await client.send(.get, "/v1/inbox", token: anna).text
            #expect(inbox.contains("A second factor was removed from your account."))
        }
    }
}
