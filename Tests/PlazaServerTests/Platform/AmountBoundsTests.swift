import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// Bounds on money (issue 36): every amount a request names is at most 100,000,000 minor units and a price per card at
/// most 1,000,000; above a bound, or when a total Plaza computes would pass it, the answer is 422 `amount_too_large`
/// naming the field, and nothing traps. The maximum itself goes through cart, checkout, charge and refund.
@Suite struct AmountBoundsTests {
    static let huge: Int64 = 1 << 62

    static func expectTooLarge(
        _ response: TestResponse,
        _ field: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == .unprocessableContent, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.problem?.code == .amountTooLarge, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.problem?.errors?.map(\.field) == [field], "\(response.text)", sourceLocation: sourceLocation)
    }

    @Test(arguments: TestEngine.enabled)
    func cardPricesAndCartTotalsStayWithinTheBoundsAndNothingTraps(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await CardOrderTests.shopper(client, services, funds: 0)
            let admin = s.shop.admin
            let paper = { (sample: Int64, unit: Int64) in
                CardPaperRequest(
                    name: "Linen",
                    description: "Textured",
                    sampleAmount: sample,
                    tiers: [CardPriceTier(minQuantity: 1, unitAmount: unit)]
                )
            }
            let linen = "/v1/admin/cards/papers/\(s.shop.linen)"
            // 2^62 per card, or a sample above 1,000,000: refused, naming the field.
            Self.expectTooLarge(
                try await client.send(.put, linen, json: paper(200, Self.huge), token: admin),
                "tiers.0.unitAmount"
            )
            Self.expectTooLarge(
                try await client.send(.put, linen, json: paper(1_000_001, 300), token: admin),
                "sampleAmount"
            )
            // The maximum per card is taken.
            let saved = try await client.send(.put, linen, json: paper(1_000_000, 1_000_000), token: admin)
            #expect(saved.status == .ok, "\(saved.text)")

            // 1,000 cards at 1,000,000 would be 10^9: refused naming the quantity; 99 cards fit, with shipping.
            let many = CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .print, quantity: 1_000)
            Self.expectTooLarge(
                try await client.send(.post, "/v1/cards/cart/items", json: many, token: s.token),
                "quantity"
            )
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .print, quantity: 99)
            )
            let cart = try await client.send(.get, "/v1/cards/cart", token: s.token).decode(CardCart.self)
            #expect(
                cart.subtotal == 99_000_000 && cart.total == 99_000_000 + cart.shipping + cart.tax
                    && cart.total <= AmountBounds.maximum
            )
            // A second line would pass the maximum.
            let more = CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .print, quantity: 2)
            Self.expectTooLarge(
                try await client.send(.post, "/v1/cards/cart/items", json: more, token: s.token),
                "quantity"
            )
            // Checkout at the maximum makes an order of exactly that total.
            let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
            let placed = try await CardOrderTests.order(client, s.token, proofs: [proof])
            #expect(placed.status == .created, "\(placed.text)")
            #expect(try placed.decode(CardOrder.self).total == cart.total)

            // A price stored before the bound existed (2^62 per card) crashed the process; now the cart says why.
            let tiers = #"[{"minQuantity":1,"unitAmount":\#(Self.huge)}]"#
            try await services.database.sql.update("card_papers").set("tiers", to: tiers).where(
                "id",
                .equal,
                s.shop.linen
            ).run()
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .sample)
            )
            let two = CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .print, quantity: 2)
            Self.expectTooLarge(
                try await client.send(.post, "/v1/cards/cart/items", json: two, token: s.token),
                "quantity"
            )
            #expect(try await client.send(.get, "/healthz").status == .ok, "still serving")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theLargestChargeIsPaidAndRefundedAndOneCentMoreIsRefused(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let wallet = WalletDriver(client)
            let (business, bruno, anna) = try await ChargeTests.counter(client, funds: 0)
            // Anna holds the maximum (credited as a settled top-up would be).
            let annaID = try await client.send(.get, "/v1/me", token: anna).decode(User.self).id
            let credit = JournalEntry(
                kind: "top_up",
                referenceId: UUID(),
                currency: "USD",
                postings: [
                    Posting(owner: SystemAccount.gatewayClearing, kind: .system, amount: -AmountBounds.maximum),
                    Posting(owner: annaID, kind: .user, amount: AmountBounds.maximum),
                ],
                createdAt: Date()
            )
            let walletService = services.wallet
            try await services.database.transaction { db in try await walletService.post(credit, on: db) }

            Self.expectTooLarge(
                try await wallet.charge(
                    business: business.id,
                    customer: "anna",
                    AmountBounds.maximum + 1,
                    token: bruno
                ),
                "amount"
            )
            let item = [ChargeItem(description: "Everything", quantity: 999, unitAmount: AmountBounds.maximum)]
            Self.expectTooLarge(
                try await wallet.charge(
                    business: business.id,
                    customer: "anna",
                    AmountBounds.maximum,
                    items: item,
                    token: bruno
                ),
                "items"
            )
            let created = try await wallet.charge(
                business: business.id,
                customer: "anna",
                AmountBounds.maximum,
                token: bruno
            )
            #expect(created.status == .created, "\(created.text)")
            let charge = try created.decode(Charge.self)
            #expect(try await wallet.approve(charge, token: anna).status == .ok)
            Self.expectTooLarge(try await wallet.refund(charge, AmountBounds.maximum + 1, token: bruno), "amount")
            let refunded = try await wallet.refund(charge, AmountBounds.maximum, token: bruno)
            #expect(
                try refunded.status == .ok && refunded.decode(Charge.self).refundedAmount == AmountBounds.maximum,
                "\(refunded.text)"
            )
            #expect(try await wallet.balance(token: anna) == AmountBounds.maximum)
            Self.expectTooLarge(try await wallet.transfer(to: "bruno", AmountBounds.maximum + 1, token: anna), "amount")
            #expect(try await services.verifyLedger().problems.isEmpty)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func couponsAndProgramsRefuseHugeAmountsAndFarEnds(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let square = Coordinate(latitude: 48.1374, longitude: 11.5755)
            let (tokens, business, _) = try await PlacesDriver(client).shop(
                owner: "bruno",
                name: "Bruno's Bakery",
                at: square
            )
            let bruno = tokens.accessToken
            let campaigns = "/v1/businesses/\(business.id)/campaigns"

            var coupon = CampaignTests.coupon()
            coupon.discount = CouponDiscount(amountOff: Money(amount: Self.huge, currency: "USD"))
            Self.expectTooLarge(
                try await client.send(.post, campaigns, json: coupon, token: bruno),
                "discount.amountOff"
            )
            coupon = CampaignTests.coupon()
            coupon.minimumSpend = Money(amount: AmountBounds.maximum + 1, currency: "USD")
            Self.expectTooLarge(
                try await client.send(.post, campaigns, json: coupon, token: bruno),
                "minimumSpend.amount"
            )
            coupon = CampaignTests.coupon()
            coupon.endsAt = Date(timeIntervalSince1970: 253_402_300_000)  // the year 9999
            let far = try await client.send(.post, campaigns, json: coupon, token: bruno)
            #expect(
                far.problem?.code == .validationFailed && far.problem?.errors?.map(\.field) == ["endsAt"],
                "\(far.text)"
            )

            let programs = "/v1/businesses/\(business.id)/loyalty-programs"
            var program = LoyaltyProgramRequest(title: "Coffee card", punchesRequired: 8, reward: "A free coffee")
            program.expiresAt = Date(timeIntervalSince1970: 253_402_300_000)
            let ends = try await client.send(.post, programs, json: program, token: bruno)
            #expect(
                ends.problem?.code == .validationFailed && ends.problem?.errors?.map(\.field) == ["expiresAt"],
                "\(ends.text)"
            )
            program.expiresAt = nil
            program.minimumSpend = Money(amount: Self.huge, currency: "USD")
            Self.expectTooLarge(
                try await client.send(.post, programs, json: program, token: bruno),
                "minimumSpend.amount"
            )
        }
    }
}
