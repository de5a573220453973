import Foundation

/// `GET /v1/cards/me/sales`: what a designer's templates sold (orders paid, at the printer or shipped; cancelled ones
/// do not count), per template and in all, in each currency the shop sold in.
public struct CardDesignerSales: Codable, Sendable, Hashable {
    /// Every template of the designer, the best-selling first (those without sales too, at zero).
    public var templates: [CardTemplateSales]
    /// The sums over every template, one per currency (none before the first sale).
    public var totals: [CardSalesTotal]

    public init(templates: [CardTemplateSales], totals: [CardSalesTotal]) {
        self.templates = templates
        self.totals = totals
    }
}

/// One template's sales in one currency.
public struct CardTemplateSales: Codable, Sendable, Hashable {
    public var templateId: UUID
    public var name: String
    public var state: CardTemplateState
    /// Orders with at least one line of the template.
    public var orders: Int
    /// Printed cards, samples included.
    public var units: Int
    /// What the lines cost the shoppers, in minor units (before any sample credit, shipping and tax).
    public var revenue: Int64
    public var currency: String

    public init(
        templateId: UUID,
        name: String,
        state: CardTemplateState,
        orders: Int,
        units: Int,
        revenue: Int64,
        currency: String
    ) {
        self.templateId = templateId
        self.name = name
        self.state = state
        self.orders = orders
        self.units = units
        self.revenue = revenue
        self.currency = currency
    }
}

/// The designer's sales in all, in one currency.
public struct CardSalesTotal: Codable, Sendable, Hashable {
    public var orders: Int
    public var units: Int
    public var revenue: Int64
    public var currency: String

    public init(orders: Int, units: Int, revenue: Int64, currency: String) {
        self.orders = orders
        self.units = units
        self.revenue = revenue
        self.currency = currency
    }
}
