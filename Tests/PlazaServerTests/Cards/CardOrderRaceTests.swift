import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Card orders under races (issue 36): a payment, the shopper's cancel, an admin's cancel and the printer's start
/// landing at once leave every order in one state, with its money taken once and given back at most once.
@Suite struct CardOrderRaceTests {
    static let funds: Int64 = 40_000

    /// A shopper with `funds` in the wallet (two top-ups: one may bring at most $250).
    static func shopper(
        _ client: any TestClientProtocol,
        _ services: PlazaServices
    ) async throws -> CardOrderTests.Shopper {
        let s = try await CardOrderTests.shopper(client, services, funds: funds / 2)
        try await WalletDriver(client).fund(funds / 2, token: s.token)
        return s
    }

    /// `count` orders of 25 linen cards waiting for payment.
    static func orders(
        _ client: any TestClientProtocol,
        _ s: CardOrderTests.Shopper,
        count: Int
    ) async throws -> [CardOrder] {
        var orders: [CardOrder] = []
        for _ in 0..<count {
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 25)
            )
            let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
            orders.append(try await CardOrderTests.order(client, s.token, proofs: [proof]).decode(CardOrder.self))
        }
        return orders
    }

    /// The shopper's wallet holds what it was funded with, less every order that ended paid or further along.
    static func balanced(
        _ client: any TestClientProtocol,
        _ services: PlazaServices,
        _ s: CardOrderTests.Shopper,
        funds: Int64,
        _ ids: [UUID]
    )
        async throws
    {
        var kept: Int64 = 0
        for id in ids {
            let order = try await client.send(.get, "/v1/cards/orders/\(id)", token: s.token).decode(CardOrder.self)
            if order.status != .cancelled && order.status != .pendingPayment { kept += order.total }
        }
        #expect(try await WalletDriver(client).balance(token: s.token) == funds - kept)
        #expect(try await services.verify().findings == [])
    }

    @Test(arguments: TestEngine.enabled)
    func payingRacingAnAdminCancelTakesTheMoneyOnlyForAnOrderThatStays(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await Self.shopper(client, services)
            let orders = try await Self.orders(client, s, count: 6)
            for order in orders {
                async let paying = CardOrderTests.pay(client, s.token, order)
                async let cancelling = client.send(
                    .post,
                    "/v1/admin/cards/orders/\(order.id)/cancel",
                    json: CardCancelRequest(reason: "The paper is out of stock."),
                    token: s.shop.admin
                )
                let (paid, cancelled) = try await (paying, cancelling)
                #expect(cancelled.status == .ok, "an admin may cancel a waiting or a paid order: \(cancelled.text)")
                #expect(paid.status == .ok || paid.problem?.code == .stateConflict, "\(paid.text)")
                let ended = try await client.send(.get, "/v1/cards/orders/\(order.id)", token: s.token).decode(
                    CardOrder.self
                )
                #expect(ended.status == .cancelled)
            }
            try await Self.balanced(client, services, s, funds: Self.funds, orders.map(\.id))
        }
    }

    /// A paid order cancelled by its shopper and by an admin while the printer takes it: it is refunded once, or it is
    /// at the printer (an admin may still cancel it there, and then it is refunded).
    @Test(arguments: TestEngine.enabled)
    func cancelsRacingEachOtherAndThePrinterRefundOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await Self.shopper(client, services)
            let orders = try await Self.orders(client, s, count: 6)
            for order in orders {
                #expect(try await CardOrderTests.pay(client, s.token, order).status == .ok)
                async let shopper = client.send(
                    .post,
                    "/v1/cards/orders/\(order.id)/cancel",
                    json: CardCancelRequest(reason: "Wrong date"),
                    token: s.token,
                    headers: WalletDriver.keyed(UUID().uuidString)
                )
                async let admin = client.send(
                    .post,
                    "/v1/admin/cards/orders/\(order.id)/cancel",
                    json: CardCancelRequest(reason: "The paper is out of stock."),
                    token: s.shop.admin
                )
                async let printer = client.send(
                    .post,
                    "/v1/admin/cards/orders/\(order.id)/send-to-production",
                    token: s.shop.admin
                )
                let answers = try await [shopper, admin, printer]
                #expect(
                    answers.allSatisfy { $0.status == .ok || $0.problem?.code == .stateConflict },
                    "\(answers.map(\.text))"
                )
                #expect(answers[0...1].filter { $0.status == .ok }.count <= 1, "one cancel counts")
            }
            try await Self.balanced(client, services, s, funds: Self.funds, orders.map(\.id))
        }
    }
}
