import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

/// The wallet's transitions raced on both engines (issue 36): each decides from the row it changes, so that whatever
/// order two requests land in, the money ends where the states say.
@Suite struct WalletRaceTests {
    @Test(arguments: TestEngine.enabled)
    func refundsRacingEachOtherNeverGiveBackMoreThanTheCharge(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            for _ in 0..<3 {
                let charge = try await wallet.charge(business: business.id, customer: "anna", 1_000, token: bruno)
                    .decode(Charge.self)
                #expect(try await wallet.approve(charge, token: anna).status == .ok)
                // Three refunds of 400 from two staff devices at once: only two fit in 1,000.
                let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for _ in 0..<3 { group.addTask { try await wallet.refund(charge, 400, token: bruno) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.filter { $0.status == .ok }.count == 2, "\(answers.map(\.text))")
                #expect(answers.filter { $0.problem?.errors?.map(\.field) == ["amount"] }.count == 1)
                let seen = try await client.send(.get, "/v1/charges/\(charge.id)", token: bruno).decode(Charge.self)
                #expect(seen.refundedAmount == 800 && seen.status == .refunded)
            }
            #expect(try await wallet.balance(token: anna) == 5_000 - 3 * 200)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// The customer answers one charge from a phone and a watch at once: one answer counts, the other is told what
    /// happened; approved twice, it is paid once.
    @Test(arguments: TestEngine.enabled)
    func aChargeAnsweredFromTwoDevicesAtOnceIsDecidedOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            var paid: Int64 = 0
            for round in 0..<6 {
                let charge = try await wallet.charge(business: business.id, customer: "anna", 100, token: bruno).decode(
                    Charge.self
                )
                async let first = wallet.approve(charge, token: anna)
                async let second =
                    round.isMultiple(of: 2)
                    ? wallet.approve(charge, token: anna) : wallet.end(charge, "decline", token: anna)
                let answers = try await [first, second]
                #expect(answers.filter { $0.status == .ok }.count == 1, "\(answers.map(\.text))")
                let loser = try #require(answers.first { $0.status != .ok })
                #expect(loser.status == .conflict && loser.problem?.code == .stateConflict)
                let seen = try await client.send(.get, "/v1/charges/\(charge.id)", token: bruno).decode(Charge.self)
                #expect(loser.problem?.currentState == seen.status.rawValue)
                if seen.status == .approved { paid += 100 }
            }
            #expect(try await wallet.balance(token: anna) == 5_000 - paid)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// A payment request paid from two devices, or paid while the person who asked calls it off: it is decided once,
    /// and what left one wallet arrived in the other.
    @Test(arguments: TestEngine.enabled)
    func aPaymentRequestPaidTwiceOrCalledOffAtOnceMovesMoneyOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            try await wallet.fund(2_000, token: anna)
            var paid: Int64 = 0
            for round in 0..<6 {
                let asked = try await client.send(
                    .post,
                    "/v1/payment-requests",
                    json: CreatePaymentRequest(to: "anna", amount: 250, currency: "USD"),
                    token: carla,
                    headers: WalletDriver.keyed(UUID().uuidString)
                )
                let request = try asked.decode(Charge.self)
                async let first = wallet.approve(request, token: anna)
                async let second =
                    round.isMultiple(of: 2)
                    ? wallet.approve(request, token: anna) : wallet.end(request, "cancel", token: carla)
                let answers = try await [first, second]
                #expect(answers.filter { $0.status == .ok }.count == 1, "\(answers.map(\.text))")
                #expect(answers.contains { $0.status == .conflict && $0.problem?.code == .stateConflict })
                let seen = try await client.send(.get, "/v1/charges/\(request.id)", token: carla).decode(Charge.self)
                if seen.status == .approved { paid += 250 }
            }
            #expect(try await wallet.balance(token: anna) == 2_000 - paid)
            #expect(try await wallet.balance(token: carla) == paid)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// A processor retrying a capture while its first delivery is still being handled: the wallet is credited once.
    @Test(arguments: TestEngine.enabled)
    func aCaptureDeliveredManyTimesAtOnceCreditsOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let topUp = try await wallet.topUp(1_000, token: anna).decode(TopUp.self)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<6 {
                    group.addTask {
                        try await Self.webhook(
                            "payment.captured",
                            event: "evt_capture_\(n)",
                            object: "pay_race",
                            reference: topUp.id,
                            amount: 1_000,
                            client: client,
                            services: services
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok })
            #expect(try await wallet.settled(topUp.id, token: anna).status == .succeeded)
            // The sandbox's own delivery of the same capture comes too, sooner or later.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await wallet.balance(token: anna) == 1_000)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// A payout reported paid and failed at once (two deliveries crossing): it settles one way, and the money is in
    /// the bank or back in the wallet, never both.
    @Test(arguments: TestEngine.enabled)
    func aPayoutReportedPaidAndFailedAtOnceSettlesOneWay(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            try await wallet.fund(3_000, token: anna)
            let response = try await client.send(
                .post,
                "/v1/wallet/withdrawals",
                json: WithdrawalRequest(amount: 1_200, currency: "USD"),
                token: anna,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            let withdrawal = try response.decode(Withdrawal.self)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<6 {
                    group.addTask {
                        try await Self.webhook(
                            n.isMultiple(of: 2) ? "payout.failed" : "payout.paid",
                            event: "evt_payout_\(n)",
                            object: "po_race",
                            reference: withdrawal.id,
                            amount: 1_200,
                            failureCode: n.isMultiple(of: 2) ? "account_closed" : nil,
                            client: client,
                            services: services
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok })
            let settled = try await wallet.withdrawalSettled(withdrawal.id, token: anna)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await wallet.balance(token: anna) == (settled.status == .succeeded ? 1_800 : 3_000))
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    /// Posts one signed processor event to the gateway webhook; its status.
    static func webhook(
        _ type: String,
        event: String,
        object: String,
        reference: UUID,
        amount: Int64,
        failureCode: String? = nil,
        client: any TestClientProtocol,
        services: PlazaServices
    ) async throws -> HTTPResponse.Status {
        let failure = failureCode.map { #","failureCode":"\#($0)""# } ?? ""
        let body = Data(
            #"{"id":"\#(event)","type":"\#(type)","created":0,"data":{"id":"\#(object)","reference":"\#(reference)","amount":\#(amount),"currency":"USD"\#(failure)}}"#
                .utf8
        )
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[HTTPField.Name("Plaza-Gateway-Signature")!] = services.gatewaySignature(for: body)
        return try await client.execute(
            uri: "/v1/webhooks/gateway",
            method: .post,
            headers: headers,
            body: ByteBuffer(bytes: body)
        ).status
    }
}
