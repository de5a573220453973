import Foundation
import HummingbirdTesting
import PlazaClient
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// The SDK's second factor: set up an app, be asked on a withdrawal, answer, remove the app.
@Suite struct SecondFactorClientTests {
    /// $50 from the sandbox's test card, settled.
    static func topUp(_ customer: PlazaClient) async throws {
        let card = CardDetails(number: "4242424242424242", expMonth: 1, expYear: 2035, cvc: "999")
        var topUp = try await customer.topUp(TopUpRequest(amount: 5_000, currency: "USD", card: card))
        for _ in 0..<1_500 where topUp.status == .pending {
            try await Task.sleep(for: .milliseconds(20))
            topUp = try await customer.topUp(topUp.id)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func anAppIsSetUpAndAWithdrawalAnsweredWithARecoveryCode(_ engine: TestEngine) async throws {
        let enforced: (inout PlazaConfiguration) -> Void = { $0.secondFactors.enforced = true }
        try await PlacesClientTests.withClients(engine, configure: enforced) { _, customer, _ in
            try await SecondFactorClientTests.topUp(customer)
            let request = WithdrawalRequest(amount: 1_000, currency: "USD")
            await #expect(throws: PlazaClientError.secondFactorRequired([])) {
                try await customer.withdraw(request)
            }

            let setup = try await customer.startTOTP()
            let secret = try #require(Base32.decode(setup.secret))
            let codes = try await customer.confirmTOTP(code: TOTP.code(secret: secret, step: TOTP.step(at: Date())))
            #expect(codes.recoveryCodes.count == 10)
            let factors = try await customer.secondFactors()
            #expect(factors.items.map(\.kind) == [.totp] && factors.recoveryCodesLeft == 10)

            do {
                _ = try await customer.withdraw(request)
                Issue.record("a withdrawal without a second factor went through")
            } catch PlazaClientError.secondFactorRequired(let asked) {
                #expect(asked.map(\.id) == factors.items.map(\.id))
            }
            await #expect(throws: PlazaClientError.self) {
                try await customer.withdraw(request, secondFactor: "ZZZZZ-ZZZZZ")
            }
            let withdrawal = try await customer.withdraw(request, secondFactor: codes.recoveryCodes[0])
            #expect(withdrawal.amount == 1_000)
            #expect(try await customer.wallet().balances.first?.available == 4_000)

            try await customer.deleteSecondFactor(id: factors.items[0].id, secondFactor: codes.recoveryCodes[1])
            #expect(try await customer.secondFactors().items.isEmpty)
        }
    }
}

/// The SDK's passkey: made from Plaza's options as an app's platform authenticator would, then answering a withdrawal.
@Suite struct PasskeyClientTests {
    @Test(arguments: TestEngine.enabled)
    func aPasskeyIsMadeAndAnswersAWithdrawal(_ engine: TestEngine) async throws {
        let enforced: (inout PlazaConfiguration) -> Void = {
            $0.secondFactors.enforced = true
            $0.publicURL = URL(string: "https://plaza.example")
        }
        try await PlacesClientTests.withClients(engine, configure: enforced) { _, customer, _ in
            try await SecondFactorClientTests.topUp(customer)
            let options = try await customer.passkeyRegistrationOptions()
            #expect(options.rp.id == "plaza.example")
            let passkey = SoftPasskey(rpId: options.rp.id, origin: "https://plaza.example")
            let added = try await customer.addPasskey(
                passkey.registration(challenge: options.challenge, name: "iPhone")
            )
            #expect(added.factor.kind == .passkey && added.recoveryCodes.count == 10)

            let request = WithdrawalRequest(amount: 1_000, currency: "USD")
            do {
                _ = try await customer.withdraw(request)
                Issue.record("a withdrawal without a second factor went through")
            } catch PlazaClientError.secondFactorRequired(let asked) {
                #expect(asked == [SecondFactorRef(id: added.factor.id, kind: .passkey)])
            }
            let challenge = try await customer.passkeyChallenge()
            #expect(challenge.allowCredentials.map(\.id) == [passkey.id] && challenge.rpId == "plaza.example")
            let answer = try passkey.assertion(challenge: challenge.challenge, counter: 1).answer
            #expect(try await customer.withdraw(request, secondFactor: answer).amount == 1_000)
            await #expect(throws: PlazaClientError.self) {
                try await customer.withdraw(request, secondFactor: answer)
            }
            #expect(try await customer.wallet().balances.first?.available == 4_000)
        }
    }
}
