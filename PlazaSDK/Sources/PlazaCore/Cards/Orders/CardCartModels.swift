import Foundation

/// What a cart line is: a run of printed cards, or one printed sample to feel the paper first.
public enum CardItemKind: String, Codable, Sendable, Hashable, CaseIterable {
    case print, sample
}

/// `POST /v1/cards/cart/items`: cards of a design on a paper (`quantity`), or `kind: "sample"` for one sample card.
public struct CardCartItemRequest: Codable, Sendable, Hashable {
    public var designId: UUID
    public var paperId: UUID
    public var kind: CardItemKind?
    public var quantity: Int?

    public init(designId: UUID, paperId: UUID, kind: CardItemKind? = nil, quantity: Int? = nil) {
        self.designId = designId
        self.paperId = paperId
        self.kind = kind
        self.quantity = quantity
    }
}

/// `PATCH /v1/cards/cart/items/{id}`: a print line's new quantity (1–1000; a sample stays one card).
public struct CardCartItemChange: Codable, Sendable, Hashable {
    public var quantity: Int

    public init(quantity: Int) {
        self.quantity = quantity
    }
}

/// A line of the cart (or of an order): its price from the paper's tiers at its quantity.
public struct CardCartItem: Codable, Sendable, Hashable {
    public var id: UUID
    public var kind: CardItemKind
    public var designId: UUID
    public var designName: String
    public var paperId: UUID
    public var paperName: String
    public var quantity: Int
    public var unitAmount: Int64
    public var amount: Int64
    public var previewUrl: String

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
        previewUrl: String
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
        self.previewUrl = previewUrl
    }
}

/// `GET /v1/cards/cart`: the lines and the sums, in minor units of `currency`.
public struct CardCart: Codable, Sendable, Hashable {
    public var items: [CardCartItem]
    public var subtotal: Int64
    /// Samples bought earlier of a template printed in this cart, taken off.
    public var credit: Int64
    public var shipping: Int64
    public var tax: Int64
    public var total: Int64
    public var currency: String

    public init(
        items: [CardCartItem],
        subtotal: Int64,
        credit: Int64,
        shipping: Int64,
        tax: Int64,
        total: Int64,
        currency: String
    ) {
        self.items = items
        self.subtotal = subtotal
        self.credit = credit
        self.shipping = shipping
        self.tax = tax
        self.total = total
        self.currency = currency
    }
}
