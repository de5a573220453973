import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 39's cart and sales findings: a line's quantity changes in the cart, a sample ordered beside prints of its
/// card is credited there (once), and a designer reads what their templates sold.
@Suite struct CardCartAndSalesTests {
    static func cart(_ client: any TestClientProtocol, _ token: String) async throws -> CardCart {
        try await client.send(.get, "/v1/cards/cart", token: token).decode(CardCart.self)
    }

    static func change(
        _ client: any TestClientProtocol,
        _ token: String,
        _ line: UUID,
        _ quantity: Int
    ) async throws -> TestResponse {
        try await client.send(
            .patch,
            "/v1/cards/cart/items/\(line)",
            json: CardCartItemChange(quantity: quantity),
            token: token
        )
    }

    /// Orders what the cart holds and pays it from the wallet.
    static func orderAndPay(_ client: any TestClientProtocol, _ s: CardOrderTests.Shopper) async throws -> CardOrder {
        let order = try await CardOrderTests.order(
            client,
            s.token,
            proofs: [try await CardOrderTests.proof(client, s.token, s.design.id)]
        ).decode(CardOrder.self)
        let paid = try await CardOrderTests.pay(client, s.token, order)
        #expect(paid.status == .ok, "\(paid.text)")
        return try paid.decode(CardOrder.self)
    }

    @Test(arguments: TestEngine.enabled)
    func aLinesQuantityChangesAndIsPricedAgain(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await CardOrderTests.shopper(client, services, funds: 0)
            let prints = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 24)
            )
            #expect(prints.amount == 24 * 350)
            // 50 cards reach the tier from 25: $2.50 each.
            let changed = try await Self.change(client, s.token, prints.id, 50)
            #expect(changed.status == .ok, "\(changed.text)")
            let line = try changed.decode(CardCartItem.self)
            #expect((line.id, line.quantity, line.unitAmount, line.amount) == (prints.id, 50, 250, 12_500))
            var cart = try await Self.cart(client, s.token)
            #expect(cart.items.map(\.quantity) == [50] && cart.subtotal == 12_500)

            // Out of range, a sample's, another's or an unknown line: refused, the cart as it was.
            let none = try await Self.change(client, s.token, prints.id, 0)
            #expect(none.status == .unprocessableContent && none.problem?.errors?.map(\.field) == ["quantity"])
            let sample = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .sample)
            )
            let moreSamples = try await Self.change(client, s.token, sample.id, 3)
            #expect(moreSamples.problem?.errors?.map(\.field) == ["quantity"], "\(moreSamples.text)")
            let other = try await AccountsDriver(client).signedIn("otto").accessToken
            #expect(try await Self.change(client, other, prints.id, 10).status == .notFound)
            #expect(try await Self.change(client, s.token, UUID(), 10).status == .notFound)
            cart = try await Self.cart(client, s.token)
            #expect(cart.items.map(\.quantity) == [50, 1])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aSampleBesideItsPrintsIsCreditedThereOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await CardOrderTests.shopper(client, services)
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .sample)
            )
            var cart = try await Self.cart(client, s.token)
            #expect(cart.credit == 0, "a sample alone is no credit yet: it is for a later order")
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 50)
            )
            cart = try await Self.cart(client, s.token)
            #expect((cart.subtotal, cart.credit, cart.total) == (12_700, 200, 12_700 - 200 + 499))
            let paid = try await Self.orderAndPay(client, s)
            #expect(paid.credit == 200 && paid.total == 12_999 && paid.status == .paid)

            // The sample was credited in its own order: a later order of the card gets no second credit.
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 50)
            )
            #expect(try await Self.cart(client, s.token).credit == 0, "credited once")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aDesignerReadsWhatTheirTemplatesSold(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await CardOrderTests.shopper(client, services)
            var sales = try await client.send(.get, "/v1/cards/me/sales", token: s.shop.designer)
                .decode(CardDesignerSales.self)
            #expect(sales.templates.map(\.name) == ["Golden Circle"] && sales.totals.isEmpty)
            #expect(sales.templates.map(\.orders) == [0] && sales.templates.map(\.revenue) == [0])

            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 30)
            )
            _ = try await Self.orderAndPay(client, s)
            // An order placed but not paid does not count.
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 40)
            )
            _ = try await CardOrderTests.order(
                client,
                s.token,
                proofs: [try await CardOrderTests.proof(client, s.token, s.design.id)]
            )
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .sample)
            )
            _ = try await Self.orderAndPay(client, s)

            sales = try await client.send(.get, "/v1/cards/me/sales", token: s.shop.designer)
                .decode(CardDesignerSales.self)
            let golden = try #require(sales.templates.first)
            #expect((golden.orders, golden.units, golden.revenue) == (2, 31, 30 * 250 + 200))
            #expect(sales.totals == [CardSalesTotal(orders: 2, units: 31, revenue: 7_700, currency: "USD")])
            #expect(try await client.send(.get, "/v1/cards/me/sales", token: s.token).status == .forbidden)
        }
    }
}
