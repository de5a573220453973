import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Cart, orders and payment: prices follow the paper's tiers, a sample is credited once against a later order of its
/// template, an order is pinned to the print files the shopper approved, paid once (wallet or card), re-approved while
/// paid, locked at the printer, and cancelled with its money back; the ledger stays sound.
@Suite struct CardOrderTests {
    static let address = CardShippingAddress(
        name: "Sam Rivera",
        line1: "12 Elm Street",
        city: "Springfield",
        postalCode: "12345",
        country: "us"
    )

    struct Shopper {
        let shop: CardsDriver
        let token: String
        let design: CardDesign
    }

    static func shopper(
        _ client: any TestClientProtocol,
        _ services: PlazaServices,
        funds: Int64 = 20_000
    ) async throws -> Shopper {
        let shop = try await CardsDriver.open(client, services)
        let token = try await AccountsDriver(client).signedIn("sam").accessToken
        if funds > 0 { try await WalletDriver(client).fund(funds, token: token) }
        let design = try await shop.design(
            token,
            CardDesignRequest(templateId: shop.template, labels: [CardLabelEdit(id: "names", text: "Mia & Leo")])
        )
        return Shopper(shop: shop, token: token, design: design)
    }

    static func add(
        _ client: any TestClientProtocol,
        _ s: Shopper,
        _ request: CardCartItemRequest
    ) async throws -> CardCartItem {
        let added = try await client.send(.post, "/v1/cards/cart/items", json: request, token: s.token)
        #expect(added.status == .created, "\(added.text)")
        return try added.decode(CardCartItem.self)
    }

    /// The SHA-256 of the design's print file as it is now: what the shopper approves by looking at it.
    static func proof(
        _ client: any TestClientProtocol,
        _ token: String,
        _ design: UUID
    ) async throws -> CardProofApproval {
        let pdf = Data(
            try await client.send(.get, "/v1/cards/designs/\(design)/print.pdf", token: token).body.readableBytesView
        )
        return CardProofApproval(
            designId: design,
            sha256: SHA256.hash(data: pdf).map { String(format: "%02x", $0) }.joined()
        )
    }

    static func order(
        _ client: any TestClientProtocol,
        _ token: String,
        proofs: [CardProofApproval],
        key: String = UUID().uuidString
    ) async throws
        -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/cards/orders",
            json: CardOrderRequest(shippingAddress: address, proofs: proofs),
            token: token,
            headers: WalletDriver.keyed(key)
        )
    }

    static func pay(
        _ client: any TestClientProtocol,
        _ token: String,
        _ order: CardOrder,
        method: CardPaymentMethod = .wallet,
        key: String = UUID().uuidString
    )
        async throws -> TestResponse
    {
        try await client.send(
            .post,
            "/v1/cards/orders/\(order.id)/pay",
            json: CardPaymentRequest(
                method: method,
                card: method == .card ? WalletDriver.goodCard : nil,
                amount: order.total,
                currency: order.currency
            ),
            token: token,
            headers: WalletDriver.keyed(key)
        )
    }

    @Test(arguments: TestEngine.enabled)
    func pricesFollowTheTiersAndASampleIsCreditedOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await Self.shopper(client, services)
            let sample = try await Self.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .sample)
            )
            #expect(sample.quantity == 1 && sample.amount == 200)
            var cart = try await client.send(.get, "/v1/cards/cart", token: s.token).decode(CardCart.self)
            #expect((cart.subtotal, cart.credit, cart.shipping, cart.tax, cart.total) == (200, 0, 499, 0, 699))

            // The sample is ordered and paid first.
            let first = try await Self.order(
                client,
                s.token,
                proofs: [try await Self.proof(client, s.token, s.design.id)]
            ).decode(CardOrder.self)
            #expect(first.status == .pendingPayment && first.total == 699)
            #expect(
                try await client.send(.get, "/v1/cards/cart", token: s.token).decode(CardCart.self).items.isEmpty,
                "the cart empties"
            )
            #expect(try await Self.pay(client, s.token, first).decode(CardOrder.self).status == .paid)

            // 24 cards cost 24 × $3.50; 50 cost 50 × $2.50 (the tier from 25), less the sample's $2.00, once.
            #expect(
                try await Self.add(
                    client,
                    s,
                    CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 24)
                ).amount == 8_400
            )
            cart = try await client.send(.get, "/v1/cards/cart", token: s.token).decode(CardCart.self)
            #expect(
                try await client.send(.delete, "/v1/cards/cart/items/\(cart.items[0].id)", token: s.token).status
                    == .noContent
            )
            #expect(
                try await Self.add(
                    client,
                    s,
                    CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 50)
                ).amount == 12_500
            )
            cart = try await client.send(.get, "/v1/cards/cart", token: s.token).decode(CardCart.self)
            #expect((cart.subtotal, cart.credit, cart.total) == (12_500, 200, 12_500 - 200 + 499))
            let second = try await Self.order(
                client,
                s.token,
                proofs: [try await Self.proof(client, s.token, s.design.id)]
            ).decode(CardOrder.self)
            #expect(second.credit == 200 && second.total == 12_799)
            _ = try await Self.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 50)
            )
            #expect(
                try await client.send(.get, "/v1/cards/cart", token: s.token).decode(CardCart.self).credit == 0,
                "credited once"
            )

            // Bad lines are refused by field.
            let wrongPaper = try await client.send(
                .post,
                "/v1/cards/cart/items",
                json: CardCartItemRequest(designId: s.design.id, paperId: UUID(), quantity: 5),
                token: s.token
            )
            #expect(wrongPaper.problem?.errors?.map(\.field) == ["paperId"])
            let none = try await client.send(
                .post,
                "/v1/cards/cart/items",
                json: CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 0),
                token: s.token
            )
            #expect(none.problem?.errors?.map(\.field) == ["quantity"])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func anOrderPrintsExactlyTheApprovedProofAndLocksAtThePrinter(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await Self.shopper(client, services)
            _ = try await Self.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 30)
            )
            let approved = try await Self.proof(client, s.token, s.design.id)
            // The design changes after the shopper looked at its proof: the order is refused until they look again.
            _ = try await client.send(
                .patch,
                "/v1/cards/designs/\(s.design.id)",
                json: CardDesignRequest(labels: [CardLabelEdit(id: "names", text: "Mia & Leon")]),
                token: s.token
            )
            let stale = try await Self.order(client, s.token, proofs: [approved])
            #expect(
                stale.problem?.code == .approvalMismatch && stale.problem?.errors?.map(\.field) == ["proofs[0].sha256"],
                "\(stale.text)"
            )
            #expect(try await Self.order(client, s.token, proofs: []).problem?.errors?.map(\.field) == ["proofs"])
            let fresh = try await Self.proof(client, s.token, s.design.id)
            let order = try await Self.order(client, s.token, proofs: [fresh]).decode(CardOrder.self)
            #expect(order.items.map(\.proofSha256) == [fresh.sha256])
            _ = try await Self.pay(client, s.token, order)
            // The receipt waits in the inbox, linking to the order.
            let inbox = try await client.send(.get, "/v1/inbox", token: s.token).decode(InboxPage.self)
            let receipt = try #require(inbox.items.first { $0.kind == .cardOrderPaid }, "\(inbox.items.map(\.kind))")
            #expect(
                receipt.link == "/cards/orders/\(order.id.uuidString.lowercased())"
                    && receipt.title.contains("Golden Circle (30 cards)")
            )

            // Paid, the design may still change, and its new proof be approved into the order.
            _ = try await client.send(
                .patch,
                "/v1/cards/designs/\(s.design.id)",
                json: CardDesignRequest(labels: [CardLabelEdit(id: "date", text: "June 13, 2027")]),
                token: s.token
            )
            let newer = try await Self.proof(client, s.token, s.design.id)
            let repinned = try await client.send(
                .post,
                "/v1/cards/orders/\(order.id)/proofs",
                json: newer,
                token: s.token,
                headers: WalletDriver.keyed(UUID().uuidString)
            )
            #expect(try repinned.decode(CardOrder.self).items.map(\.proofSha256) == [newer.sha256], "\(repinned.text)")

            // At the printer: the design is locked, and production gets exactly the approved file.
            let admin = s.shop.admin
            #expect(
                try await client.send(.post, "/v1/admin/cards/orders/\(order.id)/send-to-production", token: admin)
                    .decode(CardOrder.self).status
                    == .inProduction
            )
            let edit = try await client.send(
                .patch,
                "/v1/cards/designs/\(s.design.id)",
                json: CardDesignRequest(name: "Changed"),
                token: s.token
            )
            #expect(edit.status == .conflict && edit.problem?.code == .stateConflict)
            #expect(
                try await client.send(.delete, "/v1/cards/designs/\(s.design.id)", token: s.token).status == .conflict
            )
            #expect(
                try await client.send(.get, "/v1/cards/designs/\(s.design.id)", token: s.token).decode(CardDesign.self)
                    .locked
            )
            let file = try await client.send(
                .get,
                "/v1/admin/cards/orders/\(order.id)/items/\(order.items[0].id)/print.pdf",
                token: admin
            )
            #expect(
                SHA256.hash(data: Data(file.body.readableBytesView)).map { String(format: "%02x", $0) }.joined()
                    == newer.sha256
            )
            #expect(
                try await client.send(
                    .get,
                    "/v1/admin/cards/orders/\(order.id)/items/\(order.items[0].id)/print.pdf",
                    token: s.token
                ).status
                    == .forbidden
            )
            #expect(
                try await client.send(
                    .post,
                    "/v1/cards/orders/\(order.id)/cancel",
                    token: s.token,
                    headers: WalletDriver.keyed("c1")
                ).status
                    == .conflict
            )
            #expect(
                try await client.send(.post, "/v1/admin/cards/orders/\(order.id)/ship", token: admin).decode(
                    CardOrder.self
                ).status == .shipped
            )
            let mails = try await AccountsDriver(client).mails(to: "sam@example.com").map(\.subject)
            #expect(mails.contains("Your card order is paid") && mails.contains("Your cards are on their way"))
            // Another shopper sees nothing of it.
            let eve = try await AccountsDriver(client).signedIn("eve").accessToken
            #expect(try await client.send(.get, "/v1/cards/orders/\(order.id)", token: eve).status == .notFound)
        }
    }
}
