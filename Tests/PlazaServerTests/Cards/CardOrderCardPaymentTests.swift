import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Orders paid by card when the card does not simply pay: a declined card, and Stripe's hosted page (paid there, or
/// left without paying). The order never hangs in "being charged": it waits for payment again and says why.
@Suite struct CardOrderCardPaymentTests {
    static func placed(
        _ client: any TestClientProtocol,
        _ services: PlazaServices
    ) async throws -> (CardOrderTests.Shopper, CardOrder) {
        let s = try await CardOrderTests.shopper(client, services, funds: 0)
        _ = try await CardOrderTests.add(
            client,
            s,
            CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 25)
        )
        let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
        return (s, try await CardOrderTests.order(client, s.token, proofs: [proof]).decode(CardOrder.self))
    }

    /// The order as it is once `done` holds (the processor answers in the background).
    static func awaited(
        _ client: any TestClientProtocol,
        _ token: String,
        _ id: UUID,
        until done: (CardOrder) -> Bool
    ) async throws -> CardOrder {
        var order = try await client.send(.get, "/v1/cards/orders/\(id)", token: token).decode(CardOrder.self)
        for _ in 0..<500 where !done(order) {
            try await Task.sleep(for: .milliseconds(20))
            order = try await client.send(.get, "/v1/cards/orders/\(id)", token: token).decode(CardOrder.self)
        }
        return order
    }

    static func payByCard(
        _ client: any TestClientProtocol,
        _ token: String,
        _ order: CardOrder,
        card: CardDetails?
    ) async throws -> TestResponse {
        try await client.send(
            .post,
            "/v1/cards/orders/\(order.id)/pay",
            json: CardPaymentRequest(method: .card, card: card, amount: order.total, currency: order.currency),
            token: token,
            headers: WalletDriver.keyed(UUID().uuidString)
        )
    }

    @Test(arguments: TestEngine.enabled)
    func aDeclinedCardLeavesTheOrderToPayAgainWithTheReason(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (s, order) = try await Self.placed(client, services)
            let started = try await Self.payByCard(client, s.token, order, card: WalletDriver.declinedCard)
            #expect(try started.decode(CardOrder.self).paymentMethod == .card, "\(started.text)")
            let declined = try await Self.awaited(client, s.token, order.id) { $0.paymentProblem != nil }
            #expect(declined.status == .pendingPayment && declined.paymentMethod == nil)
            #expect(declined.paymentProblem == "Your card was declined.")

            // The order's page opens its pay form again, saying why.
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "sam", "password": AccountsDriver.password])
            let page = try await browser.get("/cards/orders/\(order.id)").text
            #expect(
                page.contains(
                    "Your card payment did not go through: Your card was declined. Try again, or pay from your wallet."
                )
            )
            #expect(page.contains("data-pay-form") && !page.contains("data-paying"))

            // Another card pays it, and the problem is gone.
            _ = try await Self.payByCard(client, s.token, declined, card: WalletDriver.goodCard)
            let paid = try await Self.awaited(client, s.token, order.id) { $0.status == .paid }
            #expect(paid.status == .paid && paid.paymentProblem == nil)
            #expect(try await WalletDriver(client).balance(token: s.token) == 0)
            #expect(try await services.verifyLedger().problems == [])
        }
    }

    @Test func onStripeTheShopperPaysOnItsPageOrComesBackWithoutPaying() async throws {
        try await StripeTests.withStripe(.sqlite) { client, services, stripe in
            let (s, order) = try await Self.placed(client, services)
            let typed = try await Self.payByCard(client, s.token, order, card: WalletDriver.goodCard)
            #expect(typed.problem?.errors?.map(\.field) == ["card"], "card numbers go to Stripe's page only")

            let started = try await Self.payByCard(client, s.token, order, card: nil).decode(CardOrder.self)
            let checkout = try #require(started.checkoutUrl)
            #expect(checkout.hasPrefix(stripe.baseURL + "/pay/") && started.status == .pendingPayment)
            let back = try #require(try await stripe.pay(checkout, card: "4242 4242 4242 4242"))
            #expect(StripeTests.path(back) == "/cards/orders/\(order.id.uuidString.lowercased())?notice=card-paid")
            let paid = try await Self.awaited(client, s.token, order.id) { $0.status == .paid }
            #expect(paid.status == .paid && paid.checkoutUrl == nil)
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "sam", "password": AccountsDriver.password])
            #expect(try await browser.get(StripeTests.path(back)).text.contains("Your card payment is on its way"))

            // A second order: the shopper goes to Stripe's page, then "Back" to Plaza without paying.
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .sample)
            )
            let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
            let next = try await CardOrderTests.order(client, s.token, proofs: [proof]).decode(CardOrder.self)
            let opened = try await Self.payByCard(client, s.token, next, card: nil).decode(CardOrder.self)
            let session = try #require(opened.checkoutUrl?.split(separator: "/").last.map(String.init))
            let cancelURL = try #require(stripe.calls.last { $0.path == "/v1/checkout/sessions" }?.form["cancel_url"])
            let cancelled = try await browser.get(StripeTests.path(cancelURL))
            #expect(
                cancelled.headers[.location] == "/cards/orders/\(next.id.uuidString.lowercased())?notice=card-cancelled"
            )
            #expect(stripe.session(session)?.status == "expired", "Stripe's page is closed")
            let again = try await Self.awaited(client, s.token, next.id) { $0.paymentProblem != nil }
            #expect(again.status == .pendingPayment && again.checkoutUrl == nil && again.paymentMethod == nil)
            let page = try await browser.get("/cards/orders/\(next.id)?notice=card-cancelled").text
            #expect(page.contains("You left the card page: nothing was charged.") && page.contains("data-pay-form"))
            #expect(try await services.verifyLedger().problems == [])
        }
    }

    /// The shopper cancels an order while its card page is open, then pays there anyway: the card's money lands in the
    /// wallet and stays there, never in the card shop's sales for an order that will not print.
    @Test func aCardPaymentSettlingAfterTheOrderWasCancelledStaysInTheWallet() async throws {
        try await StripeTests.withStripe(.sqlite) { client, services, stripe in
            let (s, order) = try await Self.placed(client, services)
            let started = try await Self.payByCard(client, s.token, order, card: nil).decode(CardOrder.self)
            let checkout = try #require(started.checkoutUrl)
            let cancel = try await client.send(
                .post,
                "/v1/cards/orders/\(order.id)/cancel",
                json: CardCancelRequest(reason: "Changed my mind"),
                token: s.token,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            #expect(try cancel.decode(CardOrder.self).status == .cancelled, "\(cancel.text)")
            _ = try await stripe.pay(checkout, card: "4242 4242 4242 4242")
            let wallet = WalletDriver(client)
            for _ in 0..<500 where try await wallet.balance(token: s.token) == 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await wallet.balance(token: s.token) == order.total, "the card's money waits in the wallet")
            let after = try await client.send(.get, "/v1/cards/orders/\(order.id)", token: s.token).decode(
                CardOrder.self
            )
            #expect(after.status == .cancelled)
            #expect(try await services.verify().findings == [])
        }
    }

    /// A card payment settling while the shopper cancels (issue 36: on PostgreSQL the settling transaction charged the
    /// order it had read as waiting, after the cancel committed): every order ends paid with its one charge, or
    /// cancelled with the card's money in the wallet.
    @Test(arguments: TestEngine.enabled)
    func aCardPaymentRacingACancelEndsPaidOrWithTheMoneyInTheWallet(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let (s, first) = try await Self.placed(client, services)
            var orders = [first]
            for _ in 1..<12 {
                _ = try await CardOrderTests.add(
                    client,
                    s,
                    CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 25)
                )
                let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
                orders.append(try await CardOrderTests.order(client, s.token, proofs: [proof]).decode(CardOrder.self))
            }
            for order in orders {
                async let paying = Self.payByCard(client, s.token, order, card: WalletDriver.goodCard)
                async let cancelling = client.send(
                    .post,
                    "/v1/cards/orders/\(order.id)/cancel",
                    json: CardCancelRequest(),
                    token: s.token,
                    headers: WalletDriver.keyed(UUID().uuidString)
                )
                _ = try await (paying, cancelling)
            }
            // Every card payment settles (the processor answers in the background), then the sums must hold.
            var ended: [CardOrder] = []
            for order in orders {
                ended.append(
                    try await Self.awaited(client, s.token, order.id) {
                        $0.status != .pendingPayment || $0.paymentMethod == nil
                    }
                )
            }
            try await Task.sleep(for: .milliseconds(500))
            let paid = ended.filter { $0.status == .paid }.map(\.total).reduce(0, +)
            let cancelledAfterPaying = try await services.verify().findings
            #expect(cancelledAfterPaying == [])
            // What the cards brought in and no paid order spent waits in the wallet, to the cent.
            let topUps = try await WalletDriver(client).activity(token: s.token).items.filter {
                $0.kind == .topUp && $0.status == .succeeded
            }
            let brought = topUps.map(\.amount).reduce(0, +)
            #expect(try await WalletDriver(client).balance(token: s.token) == brought - paid)
        }
    }
}
