import Foundation
import PlazaCore

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

extension PlazaClient {
    // MARK: The cart

    /// My cart: each line priced by its paper's tiers, the sample credit, shipping, tax and the total.
    public func cardCart() async throws -> CardCart {
        try await send("GET", "v1/cards/cart", auth: .required)
    }

    /// Puts cards of a design on a paper in the cart (`quantity`), or one sample (`kind: .sample`).
    public func addToCardCart(_ request: CardCartItemRequest) async throws -> CardCartItem {
        try await send("POST", "v1/cards/cart/items", body: request, auth: .required)
    }

    /// Changes how many cards a print line orders; the line comes back priced at its new quantity.
    public func changeCardCartItem(_ item: UUID, quantity: Int) async throws -> CardCartItem {
        try await send(
            "PATCH",
            "v1/cards/cart/items/\(item.uuidString.lowercased())",
            body: CardCartItemChange(quantity: quantity),
            auth: .required
        )
    }

    /// Takes a line out of the cart.
    public func removeFromCardCart(_ item: UUID) async throws {
        try await sendVoid("DELETE", "v1/cards/cart/items/\(item.uuidString.lowercased())", auth: .required)
    }

    // MARK: Orders

    /// Orders the cart, each design pinned to the print file approved in `proofs`; pass the same key when retrying.
    public func createCardOrder(_ request: CardOrderRequest, idempotencyKey: String? = nil) async throws -> CardOrder {
        try await sendMoney("POST", "v1/cards/orders", body: request, idempotencyKey: idempotencyKey)
    }

    /// Pays an order its total as shown (`order.total`): from the wallet at once, or by card; pass the same key when retrying.
    public func payCardOrder(
        _ order: CardOrder,
        method: CardPaymentMethod = .wallet,
        card: CardDetails? = nil,
        idempotencyKey: String? = nil
    ) async throws -> CardOrder {
        let payment = CardPaymentRequest(method: method, card: card, amount: order.total, currency: order.currency)
        return try await sendMoney(
            "POST",
            "v1/cards/orders/\(order.id.uuidString.lowercased())/pay",
            body: payment,
            idempotencyKey: idempotencyKey
        )
    }

    /// Cancels an order before it goes to the printer; a paid order's money goes back to the wallet.
    public func cancelCardOrder(
        _ id: UUID,
        reason: String? = nil,
        idempotencyKey: String? = nil
    ) async throws -> CardOrder {
        try await sendMoney(
            "POST",
            "v1/cards/orders/\(id.uuidString.lowercased())/cancel",
            body: CardCancelRequest(reason: reason),
            idempotencyKey: idempotencyKey
        )
    }

    /// Approves the new print file of a design changed after paying, until the order goes to the printer.
    public func reapproveCardProof(
        _ approval: CardProofApproval,
        order: UUID,
        idempotencyKey: String? = nil
    ) async throws -> CardOrder {
        try await sendMoney(
            "POST",
            "v1/cards/orders/\(order.uuidString.lowercased())/proofs",
            body: approval,
            idempotencyKey: idempotencyKey
        )
    }

    /// My orders, newest first.
    public func cardOrders(limit: Int? = nil, cursor: String? = nil) async throws -> Page<CardOrder> {
        try await send(
            "GET",
            "v1/cards/orders",
            query: Self.query(["limit": limit.map(String.init), "cursor": cursor]),
            auth: .required
        )
    }

    /// One of my orders.
    public func cardOrder(_ id: UUID) async throws -> CardOrder {
        try await send("GET", "v1/cards/orders/\(id.uuidString.lowercased())", auth: .required)
    }
}

extension CardProofApproval {
    /// The approval of the print file the shopper looked at (`cardDesignPrintPDF`): the SHA-256 of its bytes, in hex.
    public init(designId: UUID, printFile: Data) {
        self.init(designId: designId, sha256: SHA256.hash(data: printFile).map { String(format: "%02x", $0) }.joined())
    }
}
