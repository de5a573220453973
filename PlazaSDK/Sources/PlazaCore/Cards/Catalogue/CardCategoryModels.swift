import Foundation

/// A catalogue category (Wedding, Party, …) with its subcategories, in the admins' order.
public struct CardCategory: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var subcategories: [CardSubcategory]

    public init(id: UUID, name: String, subcategories: [CardSubcategory]) {
        self.id = id
        self.name = name
        self.subcategories = subcategories
    }
}

/// A subcategory of a catalogue category (Invitations, Save the dates, …).
public struct CardSubcategory: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String

    public init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }
}

/// `POST /v1/admin/cards/categories`: a category, or a subcategory of `parentId`.
public struct CardCategoryRequest: Codable, Sendable, Hashable {
    public var name: String
    public var parentId: UUID?

    public init(name: String, parentId: UUID? = nil) {
        self.name = name
        self.parentId = parentId
    }
}

/// An admin's change to a category or subcategory: a new name, a new place among its siblings (1 first), or both.
public struct CardCategoryUpdate: Codable, Sendable, Hashable {
    public var name: String?
    public var position: Int?

    public init(name: String? = nil, position: Int? = nil) {
        self.name = name
        self.position = position
    }
}

/// A paper a card is printed on, with its price per card by quantity and the price of one printed sample.
public struct CardPaperType: Codable, Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var description: String?
    public var sampleAmount: Int64
    public var currency: String
    /// Ascending by `minQuantity`, the first at 1.
    public var tiers: [CardPriceTier]

    public init(
        id: UUID,
        name: String,
        description: String? = nil,
        sampleAmount: Int64,
        currency: String,
        tiers: [CardPriceTier]
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.sampleAmount = sampleAmount
        self.currency = currency
        self.tiers = tiers
    }
}

/// From `minQuantity` cards on, each costs `unitAmount` (minor units).
public struct CardPriceTier: Codable, Sendable, Hashable {
    public var minQuantity: Int
    public var unitAmount: Int64

    public init(minQuantity: Int, unitAmount: Int64) {
        self.minQuantity = minQuantity
        self.unitAmount = unitAmount
    }
}

/// `POST /v1/admin/cards/papers` and `PUT …/{id}`: a paper type and its prices.
public struct CardPaperRequest: Codable, Sendable, Hashable {
    public var name: String
    public var description: String?
    public var sampleAmount: Int64
    public var tiers: [CardPriceTier]

    public init(name: String, description: String? = nil, sampleAmount: Int64, tiers: [CardPriceTier]) {
        self.name = name
        self.description = description
        self.sampleAmount = sampleAmount
        self.tiers = tiers
    }
}
