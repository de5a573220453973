import Foundation

/// Where an order goes.
public struct CardShippingAddress: Codable, Sendable, Hashable {
    public var name: String
    public var line1: String
    public var city: String
    public var postalCode: String
    /// ISO 3166 alpha-2.
    public var country: String

    public init(name: String, line1: String, city: String, postalCode: String, country: String) {
        self.name = name
        self.line1 = line1
        self.city = city
        self.postalCode = postalCode
        self.country = country
    }
}

/// The shopper's approval of one design's print file: the SHA-256 (hex) of the `print.pdf` they looked at.
public struct CardProofApproval: Codable, Sendable, Hashable {
    public var designId: UUID
    public var sha256: String

    public init(designId: UUID, sha256: String) {
        self.designId = designId
        self.sha256 = sha256
    }
}

/// `POST /v1/cards/orders`: the cart becomes an order to the address, each design pinned to its approved proof.
public struct CardOrderRequest: Codable, Sendable, Hashable {
    public var shippingAddress: CardShippingAddress
    public var proofs: [CardProofApproval]

    public init(shippingAddress: CardShippingAddress, proofs: [CardProofApproval]) {
        self.shippingAddress = shippingAddress
        self.proofs = proofs
    }
}

/// Where an order is: waiting for its money, paid, at the printer, on its way, or called off (refunded if paid).
public enum CardOrderStatus: String, Codable, Sendable, Hashable, CaseIterable {
    case pendingPayment = "pending_payment"
    case paid
    case inProduction = "in_production"
    case shipped
    case cancelled
}

/// How an order is paid.
public enum CardPaymentMethod: String, Codable, Sendable, Hashable {
    case wallet, card
}

/// A line of an order: the cart line as ordered, with the print file it was approved as.
public struct CardOrderItem: Codable, Sendable, Hashable {
    public var id: UUID
    public var kind: CardItemKind
    public var designId: UUID
    public var designName: String
    public var paperId: UUID
    public var paperName: String
    public var quantity: Int
    public var unitAmount: Int64
    public var amount: Int64
    /// The SHA-256 (hex) of the approved print file: production prints this file and no other.
    public var proofSha256: String

    public init(
        id: UUID,
        kind: CardItemKind,
        designId: UUID,
        designName: String,
        paperId: UUID,
        paperName: String,
        quantity: Int,
        unitAmount: Int64,
        amount: Int64,
        proofSha256: String
    ) {
        self.id = id
        self.kind = kind
        self.designId = designId
        self.designName = designName
        self.paperId = paperId
        self.paperName = paperName
        self.quantity = quantity
        self.unitAmount = unitAmount
        self.amount = amount
        self.proofSha256 = proofSha256
    }
}

/// An order.
public struct CardOrder: Codable, Sendable, Hashable {
    public var id: UUID
    public var status: CardOrderStatus
    public var items: [CardOrderItem]
    public var shippingAddress: CardShippingAddress
    public var subtotal: Int64
    public var credit: Int64
    public var shipping: Int64
    public var tax: Int64
    public var total: Int64
    public var currency: String
    public var paymentMethod: CardPaymentMethod?
    /// A card payment on the processor's own page: where to send the shopper to pay.
    public var checkoutUrl: String?
    /// Why the last card payment did not go through, while the order waits for payment again.
    public var paymentProblem: String?
    public var cancelReason: String?
    public var createdAt: Date
    public var paidAt: Date?
    public var shippedAt: Date?

    public init(
        id: UUID,
        status: CardOrderStatus,
        items: [CardOrderItem],
        shippingAddress: CardShippingAddress,
        subtotal: Int64,
        credit: Int64,
        shipping: Int64,
        tax: Int64,
        total: Int64,
        currency: String,
        paymentMethod: CardPaymentMethod? = nil,
        checkoutUrl: String? = nil,
        paymentProblem: String? = nil,
        cancelReason: String? = nil,
        createdAt: Date,
        paidAt: Date? = nil,
        shippedAt: Date? = nil
    ) {
        self.id = id
        self.status = status
        self.items = items
        self.shippingAddress = shippingAddress
        self.subtotal = subtotal
        self.credit = credit
        self.shipping = shipping
        self.tax = tax
        self.total = total
        self.currency = currency
        self.paymentMethod = paymentMethod
        self.checkoutUrl = checkoutUrl
        self.paymentProblem = paymentProblem
        self.cancelReason = cancelReason
        self.createdAt = createdAt
        self.paidAt = paidAt
        self.shippedAt = shippedAt
    }
}

/// `POST /v1/cards/orders/{id}/pay`: the method, and the total the shopper saw (a different total is 422).
public struct CardPaymentRequest: Codable, Sendable, Hashable {
    public var method: CardPaymentMethod
    public var card: CardDetails?
    public var amount: Int64
    public var currency: String

    public init(method: CardPaymentMethod, card: CardDetails? = nil, amount: Int64, currency: String) {
        self.method = method
        self.card = card
        self.amount = amount
        self.currency = currency
    }
}

/// `POST /v1/cards/orders/{id}/cancel` and the admins' cancel: why.
public struct CardCancelRequest: Codable, Sendable, Hashable {
    public var reason: String?

    public init(reason: String? = nil) {
        self.reason = reason
    }
}
