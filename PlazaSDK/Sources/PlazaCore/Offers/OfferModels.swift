import Foundation

/// How far offers of one kind may reach a customer.
public enum OfferLevel: String, Codable, Sendable, CaseIterable, Hashable, Comparable {
    /// None at all.
    case none
    /// Only from businesses I subscribed to (the default).
    case subscribed
    /// Also from any business I come near.
    case nearby
    /// Also from businesses I paid before.
    case all

    public static func < (lhs: OfferLevel, rhs: OfferLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Which profile facts may be used to target the customer: each off until they turn it on.
public struct TargetingUse: Codable, Sendable, Hashable {
    public var age: Bool
    public var gender: Bool
    public var student: Bool

    public init(age: Bool = false, gender: Bool = false, student: Bool = false) {
        self.age = age
        self.gender = gender
        self.student = student
    }
}

/// `GET/PUT /v1/me/offer-settings`.
public struct OfferSettings: Codable, Sendable, Hashable {
    public var ads: OfferLevel
    public var coupons: OfferLevel
    /// At most this many offers a day (1–20).
    public var maxPerDay: Int
    public var quietHours: QuietHours?
    public var use: TargetingUse
    /// Businesses whose offers never come.
    public var muted: [UUID]

    public static let defaultMaxPerDay = 3

    public init(
        ads: OfferLevel = .subscribed,
        coupons: OfferLevel = .subscribed,
        maxPerDay: Int = defaultMaxPerDay,
        quietHours: QuietHours? = nil,
        use: TargetingUse = TargetingUse(),
        muted: [UUID] = []
    ) {
        self.ads = ads
        self.coupons = coupons
        self.maxPerDay = maxPerDay
        self.quietHours = quietHours
        self.use = use
        self.muted = muted
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ads, forKey: .ads)
        try container.encode(coupons, forKey: .coupons)
        try container.encode(maxPerDay, forKey: .maxPerDay)
        try container.encode(quietHours, forKey: .quietHours)
        try container.encode(use, forKey: .use)
        try container.encode(muted, forKey: .muted)
    }

    public func level(_ kind: CampaignKind) -> OfferLevel {
        kind == .ad ? ads : coupons
    }
}

/// `PUT /v1/me/offer-settings`: the fields sent change; `quietHours: null` turns quiet hours off.
public struct OfferSettingsChange: Codable, Sendable, Hashable {
    public var ads: OfferLevel?
    public var coupons: OfferLevel?
    public var maxPerDay: Int?
    /// Absent: unchanged; `.some(nil)`: off.
    public var quietHours: QuietHours??
    public var use: TargetingUseChange?
    public var muted: [UUID]?

    private enum CodingKeys: String, CodingKey { case ads, coupons, maxPerDay, quietHours, use, muted }

    public init(
        ads: OfferLevel? = nil,
        coupons: OfferLevel? = nil,
        maxPerDay: Int? = nil,
        quietHours: QuietHours?? = nil,
        use: TargetingUseChange? = nil,
        muted: [UUID]? = nil
    ) {
        self.ads = ads
        self.coupons = coupons
        self.maxPerDay = maxPerDay
        self.quietHours = quietHours
        self.use = use
        self.muted = muted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ads = try container.decodeUnlessNull(OfferLevel.self, forKey: .ads)
        coupons = try container.decodeUnlessNull(OfferLevel.self, forKey: .coupons)
        maxPerDay = try container.decodeUnlessNull(Int.self, forKey: .maxPerDay)
        if container.contains(.quietHours) {
            quietHours = .some(
                try container.decodeNil(forKey: .quietHours)
                    ? nil : try container.decode(QuietHours.self, forKey: .quietHours)
            )
        }
        use = try container.decodeUnlessNull(TargetingUseChange.self, forKey: .use)
        muted = try container.decodeUnlessNull([UUID].self, forKey: .muted)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(ads, forKey: .ads)
        try container.encodeIfPresent(coupons, forKey: .coupons)
        try container.encodeIfPresent(maxPerDay, forKey: .maxPerDay)
        if let quietHours { try container.encode(quietHours, forKey: .quietHours) }
        try container.encodeIfPresent(use, forKey: .use)
        try container.encodeIfPresent(muted, forKey: .muted)
    }

    public func applied(to settings: OfferSettings) -> OfferSettings {
        var next = settings
        if let ads { next.ads = ads }
        if let coupons { next.coupons = coupons }
        if let maxPerDay { next.maxPerDay = maxPerDay }
        if let quietHours { next.quietHours = quietHours }
        if let use {
            if let age = use.age { next.use.age = age }
            if let gender = use.gender { next.use.gender = gender }
            if let student = use.student { next.use.student = student }
        }
        if let muted { next.muted = muted }
        return next
    }
}

public struct TargetingUseChange: Codable, Sendable, Hashable {
    public var age: Bool?
    public var gender: Bool?
    public var student: Bool?

    public init(age: Bool? = nil, gender: Bool? = nil, student: Bool? = nil) {
        self.age = age
        self.gender = gender
        self.student = student
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        age = try container.decodeUnlessNull(Bool.self, forKey: .age)
        gender = try container.decodeUnlessNull(Bool.self, forKey: .gender)
        student = try container.decodeUnlessNull(Bool.self, forKey: .student)
    }
}

/// `PUT /v1/me/subscriptions/{businessId}`.
public struct SubscriptionRequest: Codable, Sendable, Hashable {
    public var ads: Bool
    public var coupons: Bool

    public init(ads: Bool = true, coupons: Bool = true) {
        self.ads = ads
        self.coupons = coupons
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ads = try container.decodeUnlessNull(Bool.self, forKey: .ads) ?? true
        coupons = try container.decodeUnlessNull(Bool.self, forKey: .coupons) ?? true
    }
}

/// A business whose offers the customer asked for.
public struct OfferSubscription: Codable, Sendable, Hashable {
    public var business: Party
    public var ads: Bool
    public var coupons: Bool
    public var since: Date

    public init(business: Party, ads: Bool, coupons: Bool, since: Date) {
        self.business = business
        self.ads = ads
        self.coupons = coupons
        self.since = since
    }
}

/// The criteria an offer matched, as `why` lists them.
public enum OfferCriterion: String, Codable, Sendable, CaseIterable, Hashable {
    case age, gender, student, location, schedule, subscription
    case pastCustomer = "past_customer"
}

public struct OfferReason: Codable, Sendable, Hashable {
    public var criterion: OfferCriterion
    public var text: String

    public init(criterion: OfferCriterion, text: String) {
        self.criterion = criterion
        self.text = text
    }
}

/// "Why am I seeing this?": only the criteria that matched, in one sentence too, and where to change them.
public struct OfferWhy: Codable, Sendable, Hashable {
    public var reasons: [OfferReason]
    public var text: String
    public var link: String

    public init(reasons: [OfferReason], link: String = "/offers/settings") {
        self.reasons = reasons
        self.text = reasons.map(\.text).joined(separator: "; ")
        self.link = link
    }
}

/// An offer as the customer who received it sees it (`GET /v1/me/offers`); `id` is the campaign's.
public struct Offer: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var kind: CampaignKind
    public var title: String
    public var body: String
    public var business: Party
    public var discount: CouponDiscount?
    public var minimumSpend: Money?
    public var maxDiscount: Money?
    public var endsAt: Date
    public var receivedAt: Date
    /// The customer's claim of a coupon, once claimed.
    public var claim: CouponClaim?
    public var why: OfferWhy

    public init(
        id: UUID,
        kind: CampaignKind,
        title: String,
        body: String,
        business: Party,
        discount: CouponDiscount? = nil,
        minimumSpend: Money? = nil,
        maxDiscount: Money? = nil,
        endsAt: Date,
        receivedAt: Date,
        claim: CouponClaim? = nil,
        why: OfferWhy
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.business = business
        self.discount = discount
        self.minimumSpend = minimumSpend
        self.maxDiscount = maxDiscount
        self.endsAt = endsAt
        self.receivedAt = receivedAt
        self.claim = claim
        self.why = why
    }
}

public enum CouponClaimStatus: String, Codable, Sendable, CaseIterable, Hashable {
    case claimed, redeemed, expired
}

/// A claimed coupon, waiting in the wallet for the counter: its own code, shown as a QR (`plaza:coupon:<code>`).
public struct CouponClaim: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var offerId: UUID
    public var code: String
    public var qrPayload: String
    public var status: CouponClaimStatus
    public var expiresAt: Date
    public var chargeId: UUID?

    public init(
        id: UUID,
        offerId: UUID,
        code: String,
        status: CouponClaimStatus,
        expiresAt: Date,
        chargeId: UUID? = nil
    ) {
        self.id = id
        self.offerId = offerId
        self.code = code
        self.qrPayload = "plaza:coupon:\(code)"
        self.status = status
        self.expiresAt = expiresAt
        self.chargeId = chargeId
    }
}

/// `POST /v1/offers/{id}/dismiss`.
public struct OfferDismissal: Codable, Sendable, Hashable {
    /// Also mute the business: none of its offers come again.
    public var muteBusiness: Bool?

    public init(muteBusiness: Bool? = nil) {
        self.muteBusiness = muteBusiness
    }
}

/// `POST /v1/campaigns/{id}/push`: how many customers were in the shop, and how many the campaign reached (their settings
/// and its target decide; nobody gets it twice).
public struct CampaignPush: Codable, Sendable, Hashable {
    public var campaignId: UUID
    public var present: Int
    public var delivered: Int

    public init(campaignId: UUID, present: Int, delivered: Int) {
        self.campaignId = campaignId
        self.present = present
        self.delivered = delivered
    }
}

/// `POST /v1/businesses/{id}/campaigns/reach`: the kind and target of a campaign being written.
public struct CampaignReachRequest: Codable, Sendable, Hashable {
    public var kind: CampaignKind
    public var target: CampaignTarget

    public init(kind: CampaignKind, target: CampaignTarget = CampaignTarget()) {
        self.kind = kind
        self.target = target
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(CampaignKind.self, forKey: .kind)
        target = try container.decodeUnlessNull(CampaignTarget.self, forKey: .target) ?? CampaignTarget()
    }
}

/// About how many people a campaign's target matches now (their settings and profiles as they are, wherever they are):
/// rounded, and `null` under 5 so that no estimate points at a person.
public struct CampaignReach: Codable, Sendable, Hashable {
    public var people: Int?

    public init(people: Int?) {
        self.people = people
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(people, forKey: .people)
    }
}
