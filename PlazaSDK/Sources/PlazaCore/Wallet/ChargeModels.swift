import Foundation

/// One line of a charge: what was bought.
public struct ChargeItem: Codable, Sendable, Hashable {
    public var description: String
    public var quantity: Int
    /// Minor units per piece, in the charge's currency.
    public var unitAmount: Int64
    /// The business's item the line was built from (its name and price copied then); nil for a typed line.
    public var itemId: UUID?

    public init(description: String, quantity: Int, unitAmount: Int64, itemId: UUID? = nil) {
        self.description = description
        self.quantity = quantity
        self.unitAmount = unitAmount
        self.itemId = itemId
    }
}

/// A line of `CreateChargeRequest.items`: one of the business's items by `itemId` (its name and price are copied),
/// or a line typed in full (`description` and `unitAmount`).
public struct ChargeLine: Codable, Sendable, Hashable {
    public var itemId: UUID?
    public var description: String?
    public var quantity: Int
    public var unitAmount: Int64?

    /// So many of one of the business's items.
    public init(itemId: UUID, quantity: Int = 1) {
        self.itemId = itemId
        self.quantity = quantity
    }

    /// A line typed at the counter.
    public init(description: String, quantity: Int, unitAmount: Int64) {
        self.description = description
        self.quantity = quantity
        self.unitAmount = unitAmount
    }

    public init(_ item: ChargeItem) {
        self.init(description: item.description, quantity: item.quantity, unitAmount: item.unitAmount)
    }
}

/// `POST /v1/charges`: a merchant asks a customer at the counter to pay. Name the customer by `customer`
/// (username; they must be present at one of the business's locations) or by the `payCode` they show.
public struct CreateChargeRequest: Codable, Sendable, Hashable {
    public var businessId: UUID
    public var customer: String?
    public var payCode: String?
    /// The lines' sum plus `tip` (before a coupon); left out, it is worked out from the lines. Required without lines.
    public var amount: Int64?
    public var currency: String
    public var items: [ChargeLine]?
    public var message: String?
    /// A claimed coupon's code (or its `plaza:coupon:` QR): `amount` and `items` are then before the discount.
    public var coupon: String?
    /// Minor units the customer adds for the staff: part of `amount`, never discounted, not counted for loyalty.
    public var tip: Int64?

    public init(
        businessId: UUID,
        customer: String? = nil,
        payCode: String? = nil,
        amount: Int64? = nil,
        currency: String,
        items: [ChargeLine]? = nil,
        message: String? = nil,
        coupon: String? = nil,
        tip: Int64? = nil
    ) {
        self.businessId = businessId
        self.customer = customer
        self.payCode = payCode
        self.amount = amount
        self.currency = currency
        self.items = items
        self.message = message
        self.coupon = coupon
        self.tip = tip
    }
}

/// What a coupon took off a charge: the charge's `subtotal` less this is its `amount`.
public struct ChargeDiscount: Codable, Sendable, Hashable {
    public var amount: Int64
    public var claimId: UUID
    public var campaignId: UUID
    /// The coupon's title, as the receipt shows it.
    public var title: String

    public init(amount: Int64, claimId: UUID, campaignId: UUID, title: String) {
        self.amount = amount
        self.claimId = claimId
        self.campaignId = campaignId
        self.title = title
    }
}

/// `POST /v1/payment-requests`: ask a person to pay you (a friend's share of dinner). It is a charge from a person: the
/// payer approves or declines it with the charge routes, in the same inbox, with the same expiry and events.
public struct CreatePaymentRequest: Codable, Sendable, Hashable {
    /// Who should pay: `carla`, `@carla` or `$carla`.
    public var to: String
    public var amount: Int64
    public var currency: String
    public var note: String?

    public init(to: String, amount: Int64, currency: String, note: String? = nil) {
        self.to = to
        self.amount = amount
        self.currency = currency
        self.note = note
    }
}

/// Where a charge stands. `pending` ends in exactly one of the others; only `approved` may become `refunded`.
public enum ChargeStatus: String, Codable, Sendable, CaseIterable {
    case pending
    case approved
    case declined
    case cancelled
    case expired
    case refunded

    /// Whether a charge in this state may move to `next`.
    public func canMove(to next: ChargeStatus) -> Bool {
        switch (self, next) {
        case (.pending, .approved), (.pending, .declined), (.pending, .cancelled), (.pending, .expired): true
        case (.approved, .refunded), (.refunded, .refunded): true
        default: false
        }
    }
}

/// A charge request, as both the customer and the merchant see it.
public struct Charge: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    /// Short, human-readable (`PZ-7K3Q9M2X`): printed on the receipt, quoted to support.
    public var reference: String
    public var business: Party
    public var customer: Party
    public var amount: Int64
    public var currency: String
    public var items: [ChargeItem]
    public var message: String?
    public var status: ChargeStatus
    public var refundedAmount: Int64
    public var createdAt: Date
    public var expiresAt: Date
    public var decidedAt: Date?
    /// With a coupon: the amount before the discount (`amount` is what is left to pay).
    public var subtotal: Int64?
    public var discount: ChargeDiscount?
    /// Once paid: what paying earned on the business's loyalty programs (empty when nothing); absent before.
    public var loyalty: [LoyaltyEarned]?
    /// The customer's view of a charge waiting for them: the coupons that could lower it, the largest discount first
    /// (empty when none); absent for the business's people and once a coupon is on it or it is decided.
    public var eligibleCoupons: [EligibleCoupon]?
    /// Once paid: its refunds, oldest first, with the reason the business gave (empty when none); absent before.
    public var refunds: [ChargeRefund]?
    /// The part of `amount` that is a tip (0 for none): never discounted, not counted for loyalty.
    public var tip: Int64

    public init(
        id: UUID,
        reference: String,
        business: Party,
        customer: Party,
        amount: Int64,
        currency: String,
        items: [ChargeItem],
        message: String?,
        status: ChargeStatus,
        refundedAmount: Int64,
        createdAt: Date,
        expiresAt: Date,
        decidedAt: Date?,
        subtotal: Int64? = nil,
        discount: ChargeDiscount? = nil,
        loyalty: [LoyaltyEarned]? = nil,
        tip: Int64 = 0
    ) {
        self.tip = tip
        self.subtotal = subtotal
        self.discount = discount
        self.loyalty = loyalty
        self.id = id
        self.reference = reference
        self.business = business
        self.customer = customer
        self.amount = amount
        self.currency = currency
        self.items = items
        self.message = message
        self.status = status
        self.refundedAmount = refundedAmount
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.decidedAt = decidedAt
    }

    public var money: Money { Money(amount: amount, currency: currency) }

    /// What was bought, as paid: `amount` less the tip (what a coupon lowered and loyalty counts).
    public var goods: Money { Money(amount: amount - tip, currency: currency) }

    /// Refunded in part: some of the money went back, the rest stays paid.
    public var isPartlyRefunded: Bool { refundedAmount > 0 && refundedAmount < amount }

    /// The status as a person reads it: `refunded` only when all of it went back, else `partly refunded`.
    public var statusText: String { isPartlyRefunded ? "partly refunded" : status.rawValue }

    /// What went back and what stayed paid ("1.00 USD refunded, 3.20 USD kept"), or nil before any refund.
    public var refundSummary: String? {
        guard refundedAmount > 0 else { return nil }
        let refunded = Money(amount: refundedAmount, currency: currency)
        guard isPartlyRefunded else { return "\(refunded) refunded in full" }
        return "\(refunded) refunded, \(Money(amount: amount - refundedAmount, currency: currency)) kept"
    }
}

/// `POST /v1/charges/{id}/approve`: what the customer was shown; the approval fails if the charge differs.
public struct ApproveChargeRequest: Codable, Sendable, Hashable {
    public var amount: Int64
    public var currency: String
    /// The business that asks: required for a shop's charge, left out for a person's payment request.
    public var businessId: UUID?

    public init(amount: Int64, currency: String, businessId: UUID?) {
        self.amount = amount
        self.currency = currency
        self.businessId = businessId
    }
}

/// `POST /v1/charges/{id}/refunds`: part or all of what is left of an approved charge.
public struct RefundRequest: Codable, Sendable, Hashable {
    public var amount: Int64
    /// Why, in words the customer reads (at most 200 characters).
    public var reason: String?

    public init(amount: Int64, reason: String? = nil) {
        self.amount = amount
        self.reason = reason
    }

    public static let reasonLength = 200
}

/// One refund of a charge, as its customer and the business read it.
public struct ChargeRefund: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var amount: Int64
    public var reason: String?
    public var createdAt: Date

    public init(id: UUID, amount: Int64, reason: String?, createdAt: Date) {
        self.id = id
        self.amount = amount
        self.reason = reason
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey { case id, amount, reason, createdAt }

    /// `reason` is written as null when none was given.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(amount, forKey: .amount)
        try container.encode(reason, forKey: .reason)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// A short-lived, single-use code the customer shows at the counter instead of sharing their location.
public struct PayCode: Codable, Sendable, Hashable {
    /// Eight digits, to read out or type.
    public var code: String
    /// What the QR code encodes (`plaza:pay:<code>`).
    public var qrPayload: String
    public var expiresAt: Date

    public init(code: String, qrPayload: String, expiresAt: Date) {
        self.code = code
        self.qrPayload = qrPayload
        self.expiresAt = expiresAt
    }
}

/// What a business blocked from charging the user looks like in `GET /v1/me/charge-blocks`.
public struct ChargeBlock: Codable, Sendable, Hashable {
    public var business: Party
    public var createdAt: Date

    public init(business: Party, createdAt: Date) {
        self.business = business
        self.createdAt = createdAt
    }
}

/// The receipt of an approved charge.
public struct Receipt: Codable, Sendable, Hashable {
    public var chargeId: UUID
    public var reference: String
    public var business: Party
    public var customer: Party
    public var items: [ChargeItem]
    public var amount: Int64
    public var currency: String
    public var refundedAmount: Int64
    public var paidAt: Date
    /// With a coupon: the amount before it, and what it took off (`amount` is what was paid).
    public var subtotal: Int64?
    public var discount: ChargeDiscount?
    /// What paying earned on the business's loyalty programs (empty when nothing).
    public var loyalty: [LoyaltyEarned]?
    /// Its refunds, oldest first (empty when none).
    public var refunds: [ChargeRefund]?
    /// The part of `amount` that was a tip (0 for none).
    public var tip: Int64
    /// Where the shop is (its first location's address); nil for a person's payment request or a shop without one.
    public var address: String?
    /// The shop's tax registration as it prints it ("VAT DE129273398"); nil when it gave none.
    public var taxId: String?
    /// The tax included in what was bought (`amount` less `tip`) at the shop's rate; nil when it set none.
    public var tax: ReceiptTax?

    public init(
        chargeId: UUID,
        reference: String,
        business: Party,
        customer: Party,
        items: [ChargeItem],
        amount: Int64,
        currency: String,
        refundedAmount: Int64,
        paidAt: Date,
        subtotal: Int64? = nil,
        discount: ChargeDiscount? = nil,
        loyalty: [LoyaltyEarned]? = nil,
        refunds: [ChargeRefund]? = nil,
        tip: Int64 = 0,
        address: String? = nil,
        taxId: String? = nil,
        tax: ReceiptTax? = nil
    ) {
        self.tip = tip
        self.address = address
        self.taxId = taxId
        self.tax = tax
        self.subtotal = subtotal
        self.discount = discount
        self.loyalty = loyalty
        self.refunds = refunds
        self.chargeId = chargeId
        self.reference = reference
        self.business = business
        self.customer = customer
        self.items = items
        self.amount = amount
        self.currency = currency
        self.refundedAmount = refundedAmount
        self.paidAt = paidAt
    }
}

/// The tax line of a receipt: prices include tax at `rate` percent, and `amount` of what was bought is that tax.
public struct ReceiptTax: Codable, Sendable, Hashable {
    /// Percent, such as 19 or 7.7.
    public var rate: Double
    /// Minor units of tax included.
    public var amount: Int64

    public init(rate: Double, amount: Int64) {
        self.rate = rate
        self.amount = amount
    }

    /// The tax included in `gross` at `basisPoints` (1900 for 19 %), rounded half up.
    public static func included(in gross: Int64, basisPoints: Int) -> Int64 {
        guard gross > 0, basisPoints > 0 else { return 0 }
        let (product, overflow) = gross.multipliedReportingOverflow(by: Int64(basisPoints))
        guard !overflow else { return gross / (10_000 + Int64(basisPoints)) * Int64(basisPoints) }
        let divisor = 10_000 + Int64(basisPoints)
        return (product + divisor / 2) / divisor
    }
}
