import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Paying an order once (by wallet or by card), and its money back when the shopper or an admin cancels it.
extension CardOrderTests {
    @Test(arguments: TestEngine.enabled)
    func anOrderIsPaidOnceAndItsMoneyComesBackWhenCancelled(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await Self.shopper(client, services, funds: 5_000)
            let wallet = WalletDriver(client)
            _ = try await Self.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 10)
            )
            let order = try await Self.order(
                client,
                s.token,
                proofs: [try await Self.proof(client, s.token, s.design.id)]
            ).decode(CardOrder.self)
            #expect(order.total == 3_999)

            // The same key twice: one payment. Another total: refused. Paid: a new key is a conflict.
            let first = try await Self.pay(client, s.token, order, key: "pay-1")
            let again = try await Self.pay(client, s.token, order, key: "pay-1")
            #expect(first.status == .ok && again.status == .ok && first.text == again.text)
            #expect(try await wallet.balance(token: s.token) == 5_000 - 3_999)
            #expect(try await Self.pay(client, s.token, order, key: "pay-2").status == .conflict)

            // Cancelled before the printer: the money is back.
            let cancelled = try await client.send(
                .post,
                "/v1/cards/orders/\(order.id)/cancel",
                json: CardCancelRequest(reason: "Wrong date"),
                token: s.token,
                headers: WalletDriver.keyed("c")
            )
            #expect(try cancelled.decode(CardOrder.self).status == .cancelled)
            #expect(try await wallet.balance(token: s.token) == 5_000)
            let history = try await wallet.activity(token: s.token).items.map(\.kind)
            #expect(history.contains(.cardOrder) && history.contains(.cardRefund))

            // Short of money: refused, nothing moves, the order waits.
            _ = try await Self.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 100)
            )
            let big = try await Self.order(
                client,
                s.token,
                proofs: [try await Self.proof(client, s.token, s.design.id)]
            ).decode(CardOrder.self)
            let wrong = CardPaymentRequest(method: .wallet, amount: big.total - 1, currency: "USD")
            let mismatch = try await client.send(
                .post,
                "/v1/cards/orders/\(big.id)/pay",
                json: wrong,
                token: s.token,
                headers: WalletDriver.keyed("x")
            )
            #expect(mismatch.problem?.code == .approvalMismatch && mismatch.problem?.errors?.map(\.field) == ["amount"])
            #expect(try await Self.pay(client, s.token, big).problem?.code == .insufficientFunds)
            #expect(
                try await client.send(.get, "/v1/cards/orders/\(big.id)", token: s.token).decode(CardOrder.self).status
                    == .pendingPayment
            )
            #expect(try await services.verifyLedger().problems == [])
        }
    }

    @Test func aCardPaysTheOrderOnceTheProcessorSettlesAndAnAdminMayCancelWithAReason() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, services in
            let s = try await Self.shopper(client, services, funds: 0)
            _ = try await Self.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 25)
            )
            let order = try await Self.order(
                client,
                s.token,
                proofs: [try await Self.proof(client, s.token, s.design.id)]
            ).decode(CardOrder.self)
            let started = try await Self.pay(client, s.token, order, method: .card).decode(CardOrder.self)
            #expect(started.status == .pendingPayment && started.paymentMethod == .card)
            var paid = started
            for _ in 0..<500 where paid.status == .pendingPayment {
                try await Task.sleep(for: .milliseconds(20))
                paid = try await client.send(.get, "/v1/cards/orders/\(order.id)", token: s.token).decode(
                    CardOrder.self
                )
            }
            #expect(paid.status == .paid, "the top-up settled and paid the order")
            #expect(try await WalletDriver(client).balance(token: s.token) == 0, "the card's money went to the order")

            let admin = s.shop.admin
            #expect(
                try await client.send(
                    .post,
                    "/v1/admin/cards/orders/\(order.id)/cancel",
                    json: CardCancelRequest(),
                    token: admin
                ).problem?.errors?
                .map(\.field) == ["reason"]
            )
            let cancelled = try await client.send(
                .post,
                "/v1/admin/cards/orders/\(order.id)/cancel",
                json: CardCancelRequest(reason: "The paper is out of stock."),
                token: admin
            )
            #expect(try cancelled.decode(CardOrder.self).cancelReason == "The paper is out of stock.")
            #expect(try await WalletDriver(client).balance(token: s.token) == order.total, "refunded to the wallet")
            #expect(try await services.verifyLedger().problems == [])
        }
    }
}
