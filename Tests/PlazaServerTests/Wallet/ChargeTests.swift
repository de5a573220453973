import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaServer
import PlazaTestSupport
import Testing

@Suite struct ChargeTests {
    static let shopPoint = Coordinate(latitude: 48.13776, longitude: 11.57469)

    /// A shop (owner bruno), and anna standing in it with `funds` in her wallet.
    static func counter(
        _ client: any TestClientProtocol,
        funds: Int64 = 5_000
    ) async throws -> (business: Business, bruno: String, anna: String) {
        let places = PlacesDriver(client)
        let shop = try await places.shop(at: shopPoint)
        let anna = try await places.sharingCustomer("anna").accessToken
        try await places.move(to: shopPoint, token: anna)
        if funds > 0 { try await WalletDriver(client).fund(funds, token: anna) }
        return (shop.business, shop.tokens.accessToken, anna)
    }

    @Test(arguments: TestEngine.enabled)
    func theCustomerInTheShopApprovesWhatTheyWereShown(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await Self.counter(client)
            let items = [
                ChargeItem(description: "Latte", quantity: 2, unitAmount: 350),
                ChargeItem(description: "Croissant", quantity: 1, unitAmount: 250),
            ]
            let created = try await wallet.charge(
                business: business.id,
                customer: "anna",
                950,
                items: items,
                token: bruno
            )
            #expect(created.status == .created)
            let charge = try created.decode(Charge.self)
            #expect(
                charge.status == .pending && charge.customer.username == "anna" && charge.business.name == "Corner Cafe"
            )

            let inbox = try await client.send(.get, "/v1/me/charges?status=pending", token: anna).decode(
                Page<Charge>.self
            ).items
            #expect(inbox.map(\.id) == [charge.id])

            var altered = charge
            altered.amount = 95
            let mismatch = try await wallet.approve(altered, token: anna)
            #expect(mismatch.status == .unprocessableContent && mismatch.problem?.code == .approvalMismatch)
            #expect(mismatch.problem?.errors?.map(\.field) == ["amount"])

            let approved = try await wallet.approve(charge, token: anna)
            #expect(try approved.status == .ok && approved.decode(Charge.self).status == .approved)
            #expect(try await wallet.balance(token: anna) == 4_050)
            let businessWallet = try await client.send(.get, "/v1/businesses/\(business.id)/wallet", token: bruno)
                .decode(Wallet.self)
            #expect(businessWallet.balances.first?.available == 950)

            let receipt = try await client.send(.get, "/v1/charges/\(charge.id)/receipt", token: anna).decode(
                Receipt.self
            )
            #expect(receipt.items == items && receipt.reference == charge.reference && receipt.amount == 950)
            let stranger = try await AccountsDriver(client).signedIn("zed").accessToken
            #expect(
                try await client.send(.get, "/v1/charges/\(charge.id)/receipt", token: stranger).status == .notFound
            )

            let totals = try await client.send(.get, "/v1/businesses/\(business.id)/daily-totals", token: bruno).decode(
                Page<DailyTotal>.self
            ).items
            #expect(totals.map(\.net) == [950])
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test func onlyPresentCustomersCanBeChargedAndNobodyElseLearnsWhoExists() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (business, bruno, _) = try await Self.counter(client, funds: 0)
            _ = try await AccountsDriver(client).signedIn("away")
            let absent = try await wallet.charge(business: business.id, customer: "away", 100, token: bruno)
            let unknown = try await wallet.charge(business: business.id, customer: "nobody-here", 100, token: bruno)
            #expect(absent.status == .conflict && absent.problem?.code == .notPresent)
            #expect(unknown.text == absent.text)
            let stranger = try await AccountsDriver(client).signedIn("zed").accessToken
            #expect(
                try await wallet.charge(business: business.id, customer: "anna", 100, token: stranger).status
                    == .forbidden
            )
            let wrongItems = try await wallet.charge(
                business: business.id,
                customer: "anna",
                100,
                items: [ChargeItem(description: "Tea", quantity: 1, unitAmount: 90)],
                token: bruno
            )
            #expect(wrongItems.problem?.errors?.map(\.field) == ["amount"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aPayCodeWorksOnceAndOnlyForTwoMinutes(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let shop = try await PlacesDriver(client).shop(at: Self.shopPoint)
            let carl = try await AccountsDriver(client).signedIn("carl").accessToken  // not sharing his location at all
            let code = try await client.send(.post, "/v1/me/pay-codes", token: carl).decode(PayCode.self)
            #expect(code.code.count == 8 && code.qrPayload == "plaza:pay:\(code.code)")
            #expect(code.expiresAt.timeIntervalSinceNow > 100 && code.expiresAt.timeIntervalSinceNow <= 120)
            let charged = try await wallet.charge(
                business: shop.business.id,
                payCode: code.code,
                300,
                token: shop.tokens.accessToken
            )
            #expect(try charged.status == .created && charged.decode(Charge.self).customer.username == "carl")
            let again = try await wallet.charge(
                business: shop.business.id,
                payCode: code.code,
                300,
                token: shop.tokens.accessToken
            )
            #expect(again.status == .unprocessableContent && again.problem?.code == .invalidCode)
        }
    }

    @Test func blockedBusinessesAndAFourthPendingChargeAreRefused() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await Self.counter(client, funds: 0)
            for _ in 0..<3 {
                #expect(
                    try await wallet.charge(business: business.id, customer: "anna", 100, token: bruno).status
                        == .created
                )
            }
            let fourth = try await wallet.charge(business: business.id, customer: "anna", 100, token: bruno)
            #expect(fourth.status == .conflict && fourth.problem?.code == .tooManyPendingCharges)
            #expect(
                try await client.send(.put, "/v1/me/charge-blocks/\(business.id)", token: anna).status == .noContent
            )
            let blocks = try await client.send(.get, "/v1/me/charge-blocks", token: anna).decode(Page<ChargeBlock>.self)
                .items
            #expect(blocks.map(\.business.name) == ["Corner Cafe"])
            let pending = try await client.send(.get, "/v1/me/charges?status=pending", token: anna).decode(
                Page<Charge>.self
            ).items
            for charge in pending { #expect(try await wallet.end(charge, "decline", token: anna).status == .ok) }
            let blocked = try await wallet.charge(business: business.id, customer: "anna", 100, token: bruno)
            #expect(blocked.status == .forbidden && blocked.problem?.code == .chargingBlocked)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func eightChargesAtOnceLeaveThreeWaiting(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await Self.counter(client, funds: 0)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await wallet.charge(business: business.id, customer: "anna", 100, token: bruno).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 3)
            #expect(statuses.filter { $0 == .conflict }.count == 5)
            let waiting = try await client.send(.get, "/v1/me/charges?status=pending", token: anna).decode(
                Page<Charge>.self
            ).items
            #expect(waiting.count == 3)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func approveRacingCancelHasExactlyOneWinner(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await Self.counter(client)
            var paid: Int64 = 0
            for _ in 0..<5 {
                let charge = try await wallet.charge(business: business.id, customer: "anna", 100, token: bruno).decode(
                    Charge.self
                )
                async let approve = wallet.approve(charge, token: anna)
                async let cancel = wallet.end(charge, "cancel", token: bruno)
                let (approved, cancelled) = try await (approve, cancel)
                #expect([approved.status, cancelled.status].filter { $0 == .ok }.count == 1)
                let loser = approved.status == .ok ? cancelled : approved
                #expect(loser.status == .conflict && loser.problem?.code == .stateConflict)
                #expect(loser.problem?.currentState == (approved.status == .ok ? "approved" : "cancelled"))
                if approved.status == .ok { paid += 100 }
            }
            #expect(try await wallet.balance(token: anna) == 5_000 - paid)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test func anExpiredChargeCannotBeApproved() async throws {
        try await TestPlaza.withApp(.sqlite, .live, configure: { $0.wallet.chargeTTL = 1 }) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await Self.counter(client)
            let charge = try await wallet.charge(business: business.id, customer: "anna", 100, token: bruno).decode(
                Charge.self
            )
            try await Task.sleep(for: .milliseconds(1_100))
            let late = try await wallet.approve(charge, token: anna)
            #expect(late.status == .conflict && late.problem?.currentState == "expired")
            try await services.expireCharges()
            let seen = try await client.send(.get, "/v1/charges/\(charge.id)", token: bruno).decode(Charge.self)
            #expect(seen.status == .expired)
            #expect(try await wallet.balance(token: anna) == 5_000)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func refundsNeverExceedTheCharge(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await Self.counter(client)
            let charge = try await wallet.charge(business: business.id, customer: "anna", 1_000, token: bruno).decode(
                Charge.self
            )
            #expect(try await wallet.refund(charge, 100, token: bruno).problem?.code == .stateConflict)
            #expect(try await wallet.approve(charge, token: anna).status == .ok)
            let partial = try await wallet.refund(charge, 300, token: bruno)
            #expect(try partial.status == .ok && partial.decode(Charge.self).refundedAmount == 300)
            #expect(try await wallet.refund(charge, 701, token: bruno).problem?.errors?.map(\.field) == ["amount"])
            #expect(try await wallet.refund(charge, 300, token: anna).status == .notFound)
            let rest = try await wallet.refund(charge, 700, token: bruno).decode(Charge.self)
            #expect(rest.status == .refunded && rest.refundedAmount == 1_000)
            #expect(try await wallet.balance(token: anna) == 5_000)
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }
}
