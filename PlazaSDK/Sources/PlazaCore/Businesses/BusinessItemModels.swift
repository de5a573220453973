import Foundation

/// Something a business sells at its counter, with its price: the counter builds a charge by tapping items
/// (`/v1/businesses/{id}/items`).
public struct BusinessItem: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var price: Money
    /// A heading the counter groups items under ("Bread", "Coffee"); nil for none.
    public var category: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID, name: String, price: Money, category: String?, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.price = price
        self.category = category
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey { case id, name, price, category, createdAt, updatedAt }

    /// `category` is written as null when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(price, forKey: .price)
        try container.encode(category, forKey: .category)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// `POST /v1/businesses/{id}/items` (owners).
public struct BusinessItemRequest: Codable, Sendable, Hashable {
    public var name: String
    public var price: Money
    public var category: String?

    public init(name: String, price: Money, category: String? = nil) {
        self.name = name
        self.price = price
        self.category = category
    }
}

/// `PATCH /v1/businesses/{id}/items/{itemId}` (owners): the fields sent change; an empty `category` removes it.
public struct BusinessItemChange: Codable, Sendable, Hashable {
    public var name: String?
    public var price: Money?
    public var category: String?

    public init(name: String? = nil, price: Money? = nil, category: String? = nil) {
        self.name = name
        self.price = price
        self.category = category
    }
}

extension BusinessRules {
    public static let itemName = 1...80
    public static let itemCategoryLength = 40

    /// What is wrong with an item as an owner would keep it, by field.
    public static func itemProblems(name: String, price: Money, category: String?) -> [FieldError] {
        var problems: [FieldError] = []
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !itemName.contains(trimmed.count) {
            problems.append(FieldError(field: "name", message: "Give the item a name of 1 to 80 characters."))
        }
        if price.amount < 0 {
            problems.append(FieldError(field: "price.amount", message: "A price is 0 or more."))
        }
        if let category, category.trimmingCharacters(in: .whitespacesAndNewlines).count > itemCategoryLength {
            problems.append(FieldError(field: "category", message: "A category has at most 40 characters."))
        }
        return problems
    }
}
