import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Paying earns the punch (issue 39): a program that earns on payment punches the payer's card when a Plaza charge at
/// its business is paid.
@Suite struct LoyaltyPaymentTests {
    @Test(arguments: TestEngine.enabled)
    func ownersSayHowPayingEarnsAndMayChangeItWhileCardsAreHeld(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let shop = try await LoyaltyTests().shop(client)
            #expect(shop.program.earnOnPayment == false && shop.program.punchesPerPurchase == .one)
            let path = "/v1/businesses/\(shop.business.id)/loyalty-programs"

            // One punch for each whole 5.00 spent, from 3.00 up.
            var request = LoyaltyProgramRequest(title: "Bread card", punchesRequired: 10, reward: "A loaf")
            request.minimumSpend = Money(amount: 300, currency: "USD")
            request.earnOnPayment = true
            request.punchesPerPurchase = .per(Money(amount: 500, currency: "USD"))
            let created = try await client.send(.post, path, json: request, token: shop.owner)
            #expect(created.status == .created, "\(created.text)")
            let bread = try created.decode(LoyaltyProgram.self)
            #expect(bread.earnOnPayment && bread.punchesPerPurchase == .per(Money(amount: 500, currency: "USD")))
            #expect(created.text.contains(#""punchesPerPurchase":{"per":{"#), "\(created.text)")

            // A punch per nothing, or per another currency than the minimum's, is named.
            request.title = "Cake card"
            request.punchesPerPurchase = .per(Money(amount: 0, currency: "USD"))
            let zero = try await client.send(.post, path, json: request, token: shop.owner)
            #expect(
                zero.status == .unprocessableContent && zero.text.contains("punchesPerPurchase.per"),
                "\(zero.text)"
            )
            request.punchesPerPurchase = .per(Money(amount: 500, currency: "EUR"))
            let other = try await client.send(.post, path, json: request, token: shop.owner)
            #expect(
                other.status == .unprocessableContent && other.text.contains("punchesPerPurchase.per"),
                "\(other.text)"
            )
            let word = try await client.sendRaw(
                .post,
                path,
                body: #"{"title":"Tea card","punchesRequired":5,"reward":"A tea","punchesPerPurchase":"two"}"#,
                token: shop.owner
            )
            #expect(word.status == .unprocessableContent || word.status == .badRequest, "\(word.text)")

            // The coffee card's holders keep their cards; paying starts to earn for charges paid from now on.
            let customer = try await AccountsDriver(client).signedIn("anna").accessToken
            _ = try await LoyaltyTests().takeCard(client, shop.program, token: customer)
            let changed = try await client.send(
                .patch,
                "/v1/loyalty-programs/\(shop.program.id)",
                json: LoyaltyProgramChange(earnOnPayment: true),
                token: shop.owner
            )
            #expect(changed.status == .ok, "\(changed.text)")
            let program = try changed.decode(LoyaltyProgram.self)
            #expect(program.earnOnPayment && program.punchesPerPurchase == .one)
        }
    }

    /// Bruno's shop with a bread card earning a punch per 5.00 from 3.00 up (4 fill it), and anna in the shop.
    static func bakery(
        _ client: any TestClientProtocol,
        funds: Int64 = 10_000
    ) async throws -> (business: Business, bruno: String, anna: String, program: LoyaltyProgram) {
        let (business, bruno, anna) = try await ChargeTests.counter(client, funds: funds)
        var request = LoyaltyProgramRequest(title: "Bread card", punchesRequired: 4, reward: "A loaf")
        request.minimumSpend = Money(amount: 300, currency: "USD")
        request.earnOnPayment = true
        request.punchesPerPurchase = .per(Money(amount: 500, currency: "USD"))
        request.velocityWindowMinutes = 10
        let created = try await client.send(
            .post,
            "/v1/businesses/\(business.id)/loyalty-programs",
            json: request,
            token: bruno
        )
        #expect(created.status == .created, "\(created.text)")
        return (business, bruno, anna, try created.decode(LoyaltyProgram.self))
    }

    /// Bruno charges anna `amount` and she pays it; the paid charge as she got it.
    static func pay(
        _ client: any TestClientProtocol,
        _ amount: Int64,
        at business: Business,
        bruno: String,
        anna: String,
        key: String = UUID().uuidString
    ) async throws -> Charge {
        let wallet = WalletDriver(client)
        let charge = try await wallet.charge(business: business.id, customer: "anna", amount, token: bruno)
            .decode(Charge.self)
        let paid = try await wallet.approve(charge, key: key, token: anna)
        #expect(paid.status == .ok, "\(paid.text)")
        return try paid.decode(Charge.self)
    }

    @Test(arguments: TestEngine.enabled)
    func payingPunchesTheCardOncePerChargeAndARefundTakesItBack(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (business, bruno, anna, program) = try await Self.bakery(client)
            let wallet = WalletDriver(client)

            // No card, and paying may not take one yet: nothing earned, said as an empty list.
            let first = try await Self.pay(client, 950, at: business, bruno: bruno, anna: anna)
            #expect(first.loyalty == [])
            let settings = try await client.send(.get, "/v1/me/loyalty-settings", token: anna)
            #expect(try settings.decode(LoyaltySettings.self) == LoyaltySettings(cardOnPayment: false))
            let allowed = try await client.send(
                .put,
                "/v1/me/loyalty-settings",
                json: LoyaltySettings(cardOnPayment: true),
                token: anna
            )
            #expect(allowed.status == .ok, "\(allowed.text)")

            // 12.00 earns two punches on a first card; the retry with the same key answers the same, punching nothing.
            let key = UUID().uuidString
            let second = try await Self.pay(client, 1_200, at: business, bruno: bruno, anna: anna, key: key)
            let earned = try #require(second.loyalty?.first)
            #expect(second.loyalty?.count == 1 && earned.programId == program.id)
            #expect(earned.punchesAdded == 2 && earned.punches == 2 && earned.punchesRequired == 4 && !earned.completed)
            var retried = second
            retried.loyalty = nil
            let again = try await wallet.approve(retried, key: key, token: anna)
            #expect(try again.decode(Charge.self) == second)
            let cards = try await client.send(.get, "/v1/me/loyalty-cards", token: anna).decode(Page<LoyaltyCard>.self)
            #expect(cards.items.map(\.punches) == [2])

            // Under the minimum: nothing. 10.00 fills the card (two punches), which starts the next one.
            #expect(try await Self.pay(client, 250, at: business, bruno: bruno, anna: anna).loyalty == [])
            let filling = try await Self.pay(client, 1_000, at: business, bruno: bruno, anna: anna)
            #expect(filling.loyalty?.map(\.punches) == [4] && filling.loyalty?.first?.completed == true)
            let shown = try await client.send(.get, "/v1/charges/\(second.id)", token: anna).decode(Charge.self)
            #expect(shown.loyalty == second.loyalty)
            let receipt = try await client.send(.get, "/v1/charges/\(filling.id)/receipt", token: anna)
                .decode(Receipt.self)
            #expect(receipt.loyalty == filling.loyalty)

            // Half of it back: 5.00 kept still earns one punch, so one goes; the card collects again.
            let half = try await wallet.refund(filling, 500, token: bruno)
            #expect(half.status == .ok, "\(half.text)")
            #expect(try half.decode(Charge.self).loyalty?.map(\.punchesAdded) == [1])
            let after = try await client.send(.get, "/v1/me/loyalty-cards", token: anna).decode(Page<LoyaltyCard>.self)
            #expect(
                after.items.map(\.punches) == [3] && after.items.map(\.state) == [.active],
                "\(after.items.map { ($0.level, $0.state, $0.punches) })"
            )
            #expect(try await services.verifyLedger().problems.isEmpty)
            // Each card's punches are what was scanned plus what paying earned, net of the refund.
            #expect(try await services.verify(recheckAfter: .zero).findings.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func paymentsAtOnceAddUpOnOneCard(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (business, bruno, anna, _) = try await Self.bakery(client)
            _ = try await client.send(
                .put,
                "/v1/me/loyalty-settings",
                json: LoyaltySettings(cardOnPayment: true),
                token: anna
            )
            // A first payment takes the card; then two at once each add their punch.
            _ = try await Self.pay(client, 500, at: business, bruno: bruno, anna: anna)
            let wallet = WalletDriver(client)
            var pending: [Charge] = []
            for _ in 0..<2 {
                pending.append(
                    try await wallet.charge(business: business.id, customer: "anna", 500, token: bruno)
                        .decode(Charge.self)
                )
            }
            let answers = try await withThrowingTaskGroup(of: Charge.self) { group in
                for charge in pending {
                    group.addTask { try await wallet.approve(charge, token: anna).decode(Charge.self) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.compactMap(\.loyalty?.first?.punchesAdded) == [1, 1])
            #expect(Set(answers.compactMap(\.loyalty?.first?.punches)) == [2, 3])
            let cards = try await client.send(.get, "/v1/me/loyalty-cards", token: anna).decode(Page<LoyaltyCard>.self)
            #expect(cards.items.map(\.punches) == [3])
            #expect(try await services.verify(recheckAfter: .zero).findings.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aRefundTakesNothingBackFromARedeemedCard(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (business, bruno, anna, _) = try await Self.bakery(client)
            _ = try await client.send(
                .put,
                "/v1/me/loyalty-settings",
                json: LoyaltySettings(cardOnPayment: true),
                token: anna
            )
            // 20.00 fills the card; anna gets her loaf.
            let filling = try await Self.pay(client, 2_000, at: business, bruno: bruno, anna: anna)
            let earned = try #require(filling.loyalty?.first)
            #expect(earned.completed && earned.punches == 4)
            let code = try await client.send(.post, "/v1/me/loyalty-cards/\(earned.cardId)/redeem-code", token: anna)
                .decode(RedeemCode.self)
            let shop = try await client.send(.get, "/v1/businesses/\(business.id)", token: bruno).decode(Business.self)
            let location = try #require(shop.locations.first)
            let redeemed = try await client.send(
                .post,
                "/v1/businesses/\(business.id)/loyalty-redemptions",
                json: RedemptionRequest(code: code.code, locationId: location.id),
                token: bruno,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            #expect(redeemed.status == .ok || redeemed.status == .created, "\(redeemed.text)")

            // All of it back: the loaf was given, so the card keeps its punches and the charge says what it earned.
            let refund = try await WalletDriver(client).refund(filling, 2_000, token: bruno)
            #expect(try refund.decode(Charge.self).loyalty?.map(\.punchesAdded) == [4])
            let card = try await client.send(.get, "/v1/me/loyalty-cards/\(earned.cardId)", token: anna)
            #expect(card.text.contains(#""state":"redeemed""#) && card.text.contains(#""punches":4"#), "\(card.text)")
            #expect(try await services.verify(recheckAfter: .zero).findings.isEmpty)
        }
    }
}

extension LoyaltyPaymentTests {
    /// Punches earned by paying are on the card's punch list, in order with the scanned ones (issue 39).
    @Test(arguments: TestEngine.enabled)
    func theCardListsThePunchesPayingEarnedInOrderWithTheOthers(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, _ in
            let (business, bruno, anna, program) = try await Self.bakery(client)
            let shop = try await client.send(.get, "/v1/businesses/\(business.id)", token: bruno).decode(Business.self)
            let location = try #require(shop.locations.first)
            let loyalty = LoyaltyTests()
            let counter = LoyaltyTests.Shop(owner: bruno, business: business, location: location, program: program)
            let card = try await loyalty.takeCard(client, program, token: anna)
            _ = try await loyalty.sync(
                client,
                [PunchSubmission(cardId: card.id, token: try await loyalty.token(client, counter).token)],
                token: anna
            )
            // 12.00 earns two more on the card she holds.
            let paid = try await Self.pay(client, 1_200, at: business, bruno: bruno, anna: anna)
            #expect(paid.loyalty?.first?.cardId == card.id && paid.loyalty?.first?.punchesAdded == 2)

            let detail = try await client.send(.get, "/v1/me/loyalty-cards/\(card.id)", token: anna)
                .decode(LoyaltyCardDetail.self)
            #expect(detail.punches.count == 1 && detail.card.punches == 3)
            #expect(detail.paymentPunches?.map(\.chargeId) == [paid.id])
            #expect(detail.paymentPunches?.first?.reference == paid.reference)
            #expect(detail.paymentPunches?.first?.punchesAdded == 2)

            let page = PageSession(client)
            _ = try await page.submit("/login", to: "/login", ["login": "anna", "password": AccountsDriver.password])
            let html = try await page.get("/loyalty/cards/\(card.id.uuidString.lowercased())").text
            let paying = try #require(html.range(of: "+2 by paying \(paid.reference)"), "\(html)")
            let scanned = try #require(html.range(of: location.name, range: paying.upperBound..<html.endIndex))
            #expect(paying.lowerBound < scanned.lowerBound, "newest first: the payment, then the scan")
        }
    }
}
