import Foundation

public enum CampaignKind: String, Codable, Sendable, CaseIterable, Hashable {
    /// Words and a picture: nothing to claim.
    case ad
    /// A discount the customer claims and the counter applies to a charge.
    case coupon
}

/// `draft → submitted → approved | rejected → active ⇄ paused → ended`.
public enum CampaignState: String, Codable, Sendable, CaseIterable, Hashable {
    case draft, submitted, approved, rejected, active, paused, ended
}

public enum CampaignDelivery: String, Codable, Sendable, CaseIterable, Hashable {
    /// When a matching customer comes within the radius of one of the business's locations.
    case automatic
    /// When staff push it to the customers present now.
    case manual
}

/// Hours of some weekdays in the operator's time zone: `{weekdays: [2], from: "07:00", until: "10:00"}` is Tuesday 7–10.
/// An `until` before `from` runs past midnight.
public struct CampaignSchedule: Codable, Sendable, Hashable {
    /// ISO 8601 weekdays: 1 is Monday, 7 is Sunday.
    public var weekdays: [Int]
    public var from: String
    public var until: String

    public init(weekdays: [Int], from: String, until: String) {
        self.weekdays = weekdays
        self.from = from
        self.until = until
    }
}

/// Who a campaign is for. Age, gender and student criteria reach only people who turned their use on, and never minors.
public struct CampaignTarget: Codable, Sendable, Hashable {
    public var ageMin: Int?
    public var ageMax: Int?
    public var genders: [Gender]?
    public var studentsOnly: Bool?
    /// Near which of the business's locations (all of them when absent).
    public var locationIds: [UUID]?
    /// How near, in metres (default 150).
    public var radiusMeters: Int?
    public var subscribersOnly: Bool?
    /// Only people who paid the business in this many last days.
    public var pastCustomers: Int?

    public init(
        ageMin: Int? = nil,
        ageMax: Int? = nil,
        genders: [Gender]? = nil,
        studentsOnly: Bool? = nil,
        locationIds: [UUID]? = nil,
        radiusMeters: Int? = nil,
        subscribersOnly: Bool? = nil,
        pastCustomers: Int? = nil
    ) {
        self.ageMin = ageMin
        self.ageMax = ageMax
        self.genders = genders
        self.studentsOnly = studentsOnly
        self.locationIds = locationIds
        self.radiusMeters = radiusMeters
        self.subscribersOnly = subscribersOnly
        self.pastCustomers = pastCustomers
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ageMin = try container.decodeUnlessNull(Int.self, forKey: .ageMin)
        ageMax = try container.decodeUnlessNull(Int.self, forKey: .ageMax)
        genders = try container.decodeUnlessNull([Gender].self, forKey: .genders)
        studentsOnly = try container.decodeUnlessNull(Bool.self, forKey: .studentsOnly)
        locationIds = try container.decodeUnlessNull([UUID].self, forKey: .locationIds)
        radiusMeters = try container.decodeUnlessNull(Int.self, forKey: .radiusMeters)
        subscribersOnly = try container.decodeUnlessNull(Bool.self, forKey: .subscribersOnly)
        pastCustomers = try container.decodeUnlessNull(Int.self, forKey: .pastCustomers)
    }

    /// Whether it asks about the person rather than the place and time: age, gender, student status or purchases.
    public var profiles: Bool {
        ageMin != nil || ageMax != nil || !(genders ?? []).isEmpty || studentsOnly == true || pastCustomers != nil
    }
}

/// A coupon's discount: `{percentOff}` or `{amountOff, currency}` (minor units).
public struct CouponDiscount: Codable, Sendable, Hashable {
    public var percentOff: Int?
    public var amountOff: Int64?
    public var currency: String?

    public init(percentOff: Int) {
        self.percentOff = percentOff
    }

    public init(amountOff: Money) {
        self.amountOff = amountOff.amount
        self.currency = amountOff.currency
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        percentOff = try container.decodeUnlessNull(Int.self, forKey: .percentOff)
        amountOff = try container.decodeUnlessNull(Int64.self, forKey: .amountOff)
        currency = try container.decodeUnlessNull(String.self, forKey: .currency)
    }

    /// The fixed amount off, when it is one.
    public var money: Money? { amountOff.flatMap { amount in currency.map { Money(amount: amount, currency: $0) } } }
}

/// What a campaign says and whom it is for: `POST /v1/businesses/{id}/campaigns`, and each version an admin reviews.
public struct CampaignContent: Codable, Sendable, Hashable {
    public var kind: CampaignKind
    public var title: String
    public var body: String
    public var imageId: UUID?
    /// A past start means from approval.
    public var startsAt: Date
    public var endsAt: Date
    public var schedule: [CampaignSchedule]?
    public var target: CampaignTarget
    public var delivery: [CampaignDelivery]
    // Coupons only.
    public var discount: CouponDiscount?
    public var minimumSpend: Money?
    public var maxDiscount: Money?
    /// Claims in all; each claim holds one.
    public var totalRedemptions: Int?
    /// Claims per customer (default 1).
    public var perCustomer: Int?
    /// A code the business prints, for customers to type (each claim gets its own code besides).
    public var code: String?

    public init(
        kind: CampaignKind,
        title: String,
        body: String,
        imageId: UUID? = nil,
        startsAt: Date,
        endsAt: Date,
        schedule: [CampaignSchedule]? = nil,
        target: CampaignTarget = CampaignTarget(),
        delivery: [CampaignDelivery] = [.automatic],
        discount: CouponDiscount? = nil,
        minimumSpend: Money? = nil,
        maxDiscount: Money? = nil,
        totalRedemptions: Int? = nil,
        perCustomer: Int? = nil,
        code: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.body = body
        self.imageId = imageId
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.schedule = schedule
        self.target = target
        self.delivery = delivery
        self.discount = discount
        self.minimumSpend = minimumSpend
        self.maxDiscount = maxDiscount
        self.totalRedemptions = totalRedemptions
        self.perCustomer = perCustomer
        self.code = code
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(CampaignKind.self, forKey: .kind)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decode(String.self, forKey: .body)
        imageId = try container.decodeUnlessNull(UUID.self, forKey: .imageId)
        startsAt = try container.decode(Date.self, forKey: .startsAt)
        endsAt = try container.decode(Date.self, forKey: .endsAt)
        schedule = try container.decodeUnlessNull([CampaignSchedule].self, forKey: .schedule)
        target = try container.decodeUnlessNull(CampaignTarget.self, forKey: .target) ?? CampaignTarget()
        delivery = try container.decodeUnlessNull([CampaignDelivery].self, forKey: .delivery) ?? [.automatic]
        discount = try container.decodeUnlessNull(CouponDiscount.self, forKey: .discount)
        minimumSpend = try container.decodeUnlessNull(Money.self, forKey: .minimumSpend)
        maxDiscount = try container.decodeUnlessNull(Money.self, forKey: .maxDiscount)
        totalRedemptions = try container.decodeUnlessNull(Int.self, forKey: .totalRedemptions)
        perCustomer = try container.decodeUnlessNull(Int.self, forKey: .perCustomer)
        code = try container.decodeUnlessNull(String.self, forKey: .code)
    }
}

public enum FindingSeverity: String, Codable, Sendable, CaseIterable, Hashable {
    /// The campaign cannot be submitted.
    case block
    /// The admin weighs it.
    case warn
}

/// What the policy lint found in a campaign; `code` is stable.
public struct CampaignFinding: Codable, Sendable, Hashable {
    public var code: String
    public var severity: FindingSeverity
    public var field: String
    public var message: String

    public init(code: String, severity: FindingSeverity, field: String, message: String) {
        self.code = code
        self.severity = severity
        self.field = field
        self.message = message
    }
}

/// A campaign as its business's team sees it: the content (the newest version), where it stands, and the lint.
public struct Campaign: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var businessId: UUID
    public var businessName: String
    public var content: CampaignContent
    public var state: CampaignState
    public var findings: [CampaignFinding]
    /// The admin's reason for the last rejection (of the campaign or of a change to it).
    public var rejectionReason: String?
    /// An edit of an approved campaign waits for review; the approved version runs meanwhile.
    public var pendingChange: Bool
    /// Coupons: claims made so far (each holds one of `totalRedemptions`).
    public var claimed: Int
    public var createdAt: Date
    public var updatedAt: Date
    /// Plaza's admin stopped it (issue 40): the reason the business reads, and when (the state is `ended`).
    public var stopReason: String?
    public var stoppedAt: Date?

    public init(
        id: UUID,
        businessId: UUID,
        businessName: String,
        content: CampaignContent,
        state: CampaignState,
        findings: [CampaignFinding],
        rejectionReason: String? = nil,
        pendingChange: Bool = false,
        claimed: Int = 0,
        createdAt: Date,
        updatedAt: Date,
        stopReason: String? = nil,
        stoppedAt: Date? = nil
    ) {
        self.stopReason = stopReason
        self.stoppedAt = stoppedAt
        self.id = id
        self.businessId = businessId
        self.businessName = businessName
        self.content = content
        self.state = state
        self.findings = findings
        self.rejectionReason = rejectionReason
        self.pendingChange = pendingChange
        self.claimed = claimed
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, businessId, businessName, state, findings, rejectionReason, pendingChange, claimed, createdAt,
            updatedAt, stopReason, stoppedAt
    }

    // The content's fields sit beside the campaign's own, as the contract shows them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        businessId = try container.decode(UUID.self, forKey: .businessId)
        businessName = try container.decode(String.self, forKey: .businessName)
        content = try CampaignContent(from: decoder)
        state = try container.decode(CampaignState.self, forKey: .state)
        findings = try container.decode([CampaignFinding].self, forKey: .findings)
        rejectionReason = try container.decodeIfPresent(String.self, forKey: .rejectionReason)
        pendingChange = try container.decode(Bool.self, forKey: .pendingChange)
        claimed = try container.decode(Int.self, forKey: .claimed)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        updatedAt = try container.decode(Date.self, forKey: .updatedAt)
        stopReason = try container.decodeIfPresent(String.self, forKey: .stopReason)
        stoppedAt = try container.decodeIfPresent(Date.self, forKey: .stoppedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        try content.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(businessId, forKey: .businessId)
        try container.encode(businessName, forKey: .businessName)
        try container.encode(state, forKey: .state)
        try container.encode(findings, forKey: .findings)
        try container.encode(rejectionReason, forKey: .rejectionReason)
        try container.encode(pendingChange, forKey: .pendingChange)
        try container.encode(claimed, forKey: .claimed)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(stopReason, forKey: .stopReason)
        try container.encode(stoppedAt, forKey: .stoppedAt)
    }
}
