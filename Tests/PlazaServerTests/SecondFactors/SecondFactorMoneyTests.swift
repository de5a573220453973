import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Each route money leaves by: below the amount no prompt; at or over it 403 with the factors; with the code it goes,
/// and a retry under the same `Idempotency-Key` carrying the code runs (the 403 was not kept as the key's answer).
@Suite struct SecondFactorMoneyTests {
    static let shopPoint = Coordinate(latitude: 48.13776, longitude: 11.57469)

    @Test(arguments: TestEngine.enabled)
    func transfersAskFromTheAmount(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("ben")
            let wallet = WalletDriver(client)
            // A top-up is at most $250.
            try await wallet.fund(15_000, token: anna)
            try await wallet.fund(15_000, token: anna)
            #expect(try await wallet.transfer(to: "ben", 9_999, token: anna).status == .created)
            let (secret, _) = try await SecondFactorHelper(client: client, services: services).enroll(token: anna)
            let key = UUID().uuidString
            let asked = try await wallet.transfer(to: "ben", 10_000, key: key, token: anna)
            #expect(asked.status == .forbidden && asked.problem?.code == .secondFactorRequired)
            #expect(asked.problem?.factors?.map(\.kind) == [.totp])
            #expect(try await wallet.balance(token: anna) == 20_001)

            let body = TransferRequest(to: "ben", amount: 10_000, currency: "USD")
            let answer = SecondFactorHelper.answering(SecondFactorHelper.code(secret), key: key)
            let sent = try await client.send(.post, "/v1/transfers", json: body, token: anna, headers: answer)
            #expect(sent.status == .created)
            let replayed = try await client.send(.post, "/v1/transfers", json: body, token: anna, headers: answer)
            #expect(replayed.status == .created && replayed.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await wallet.balance(token: anna) == 10_001)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func withdrawalsAlwaysAskAndTheRetryWithTheCodeGoes(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced(nil)) { client, services in
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let wallet = WalletDriver(client)
            try await wallet.fund(5_000, token: anna)
            let none = try await SecondFactorTests.withdraw(client, 1, answer: "123456", token: anna)
            #expect(none.status == .forbidden && none.problem?.factors == [])
            let (secret, _) = try await SecondFactorHelper(client: client, services: services).enroll(token: anna)
            let key = UUID().uuidString
            let asked = try await SecondFactorTests.withdraw(client, 1, answer: nil, key: key, token: anna)
            #expect(asked.status == .forbidden && asked.problem?.code == .secondFactorRequired)
            let code = SecondFactorHelper.code(secret)
            let went = try await SecondFactorTests.withdraw(client, 1, answer: code, key: key, token: anna)
            #expect(went.status == .created)
            let replayed = try await SecondFactorTests.withdraw(client, 1, answer: code, key: key, token: anna)
            #expect(replayed.status == .created && replayed.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await wallet.balance(token: anna) == 4_999)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func approvingALargeChargeAsks(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced(50)) { client, services in
            let places = PlacesDriver(client)
            let shop = try await places.shop(at: Self.shopPoint)
            let bruno = shop.tokens.accessToken
            let anna = try await places.sharingCustomer("anna").accessToken
            try await places.move(to: Self.shopPoint, token: anna)
            let wallet = WalletDriver(client)
            try await wallet.fund(20_000, token: anna)
            let small = try await wallet.charge(business: shop.business.id, customer: "anna", 4_999, token: bruno)
                .decode(Charge.self)
            #expect(try await wallet.approve(small, token: anna).status == .ok)

            let (secret, _) = try await SecondFactorHelper(client: client, services: services).enroll(token: anna)
            let large = try await wallet.charge(business: shop.business.id, customer: "anna", 5_000, token: bruno)
                .decode(Charge.self)
            let key = UUID().uuidString
            let asked = try await wallet.approve(large, key: key, token: anna)
            #expect(asked.status == .forbidden && asked.problem?.code == .secondFactorRequired)
            let body = ApproveChargeRequest(amount: 5_000, currency: "USD", businessId: shop.business.id)
            let approved = try await client.send(
                .post,
                "/v1/charges/\(large.id)/approve",
                json: body,
                token: anna,
                headers: SecondFactorHelper.answering(SecondFactorHelper.code(secret), key: key)
            )
            #expect(approved.status == .ok)
            #expect(try approved.decode(Charge.self).status == .approved)
            #expect(try await wallet.balance(token: anna) == 10_001)
        }
    }

    /// Two payments sent at once with the same code: exactly one goes.
    @Test(arguments: TestEngine.enabled)
    func twoPaymentsWithOneCodeHaveOneWinner(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live, configure: SecondFactorHelper.enforced()) { client, services in
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            _ = try await accounts.signedIn("ben")
            let wallet = WalletDriver(client)
            try await wallet.fund(25_000, token: anna)
            let (secret, _) = try await SecondFactorHelper(client: client, services: services).enroll(token: anna)
            let code = SecondFactorHelper.code(secret)
            let statuses = try await SecondFactorHelper.twoTransfers(client, token: anna, answer: code)
            #expect(statuses == [201, 403])
            #expect(try await wallet.balance(token: anna) == 15_000)
        }
    }
}
