import Foundation

/// `PATCH /v1/campaigns/{id}`: the fields sent replace the stored ones (the kind never changes).
public struct CampaignChange: Codable, Sendable, Hashable {
    public var title: String?
    public var body: String?
    public var startsAt: Date?
    public var endsAt: Date?
    public var schedule: [CampaignSchedule]?
    public var target: CampaignTarget?
    public var delivery: [CampaignDelivery]?
    public var discount: CouponDiscount?
    public var minimumSpend: Money?
    public var maxDiscount: Money?
    public var totalRedemptions: Int?
    public var perCustomer: Int?
    public var code: String?
    /// Optional fields to erase (`minimumSpend`, `maxDiscount`, `totalRedemptions`, `perCustomer`, `code`, `schedule`).
    public var clear: [String]?

    /// The fields `clear` may name.
    public static let clearable = [
        "minimumSpend", "maxDiscount", "totalRedemptions", "perCustomer", "code", "schedule",
    ]

    public init(
        title: String? = nil,
        body: String? = nil,
        startsAt: Date? = nil,
        endsAt: Date? = nil,
        schedule: [CampaignSchedule]? = nil,
        target: CampaignTarget? = nil,
        delivery: [CampaignDelivery]? = nil,
        discount: CouponDiscount? = nil,
        minimumSpend: Money? = nil,
        maxDiscount: Money? = nil,
        totalRedemptions: Int? = nil,
        perCustomer: Int? = nil,
        code: String? = nil,
        clear: [String]? = nil
    ) {
        self.clear = clear
        self.title = title
        self.body = body
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
        title = try container.decodeUnlessNull(String.self, forKey: .title)
        body = try container.decodeUnlessNull(String.self, forKey: .body)
        startsAt = try container.decodeUnlessNull(Date.self, forKey: .startsAt)
        endsAt = try container.decodeUnlessNull(Date.self, forKey: .endsAt)
        schedule = try container.decodeUnlessNull([CampaignSchedule].self, forKey: .schedule)
        target = try container.decodeUnlessNull(CampaignTarget.self, forKey: .target)
        delivery = try container.decodeUnlessNull([CampaignDelivery].self, forKey: .delivery)
        discount = try container.decodeUnlessNull(CouponDiscount.self, forKey: .discount)
        minimumSpend = try container.decodeUnlessNull(Money.self, forKey: .minimumSpend)
        maxDiscount = try container.decodeUnlessNull(Money.self, forKey: .maxDiscount)
        totalRedemptions = try container.decodeUnlessNull(Int.self, forKey: .totalRedemptions)
        perCustomer = try container.decodeUnlessNull(Int.self, forKey: .perCustomer)
        code = try container.decodeUnlessNull(String.self, forKey: .code)
        clear = try container.decodeUnlessNull([String].self, forKey: .clear)
    }

    /// `content` with the fields sent replaced, and those `clear` names erased.
    public func applied(to content: CampaignContent) -> CampaignContent {
        var next = content
        if let title { next.title = title }
        if let body { next.body = body }
        if let startsAt { next.startsAt = startsAt }
        if let endsAt { next.endsAt = endsAt }
        if let schedule { next.schedule = schedule.isEmpty ? nil : schedule }
        if let target { next.target = target }
        if let delivery { next.delivery = delivery }
        if let discount { next.discount = discount }
        if let minimumSpend { next.minimumSpend = minimumSpend }
        if let maxDiscount { next.maxDiscount = maxDiscount }
        if let totalRedemptions { next.totalRedemptions = totalRedemptions }
        if let perCustomer { next.perCustomer = perCustomer }
        if let code { next.code = code.isEmpty ? nil : code }
        for field in clear ?? [] {
            switch field {
            case "minimumSpend": next.minimumSpend = nil
            case "maxDiscount": next.maxDiscount = nil
            case "totalRedemptions": next.totalRedemptions = nil
            case "perCustomer": next.perCustomer = nil
            case "code": next.code = nil
            case "schedule": next.schedule = nil
            default: break
            }
        }
        return next
    }
}
