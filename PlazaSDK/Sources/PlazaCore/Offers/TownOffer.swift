import Foundation

/// An offer running in town (`GET /v1/offers/town`): an active campaign of a listed business, whether or not it reached
/// me. Its own targeting still decides who may claim it; when I may not, `notClaimable` says why in words that tell no
/// more than the offer itself does.
public struct TownOffer: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var kind: CampaignKind
    public var title: String
    public var body: String
    public var business: Party
    public var discount: CouponDiscount?
    public var minimumSpend: Money?
    public var maxDiscount: Money?
    public var endsAt: Date
    /// It reached me already: it is among my offers too (`GET /v1/offers/{id}`).
    public var received: Bool
    /// My unused claim of it, when I hold one.
    public var claim: CouponClaim?
    /// A coupon I may claim now (`POST /v1/offers/town/{id}/claim`), or whose unused claim I hold.
    public var claimable: Bool
    /// Why I may not, when `claimable` is false.
    public var notClaimable: TownOfferRefusal?

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
        received: Bool,
        claim: CouponClaim? = nil,
        claimable: Bool,
        notClaimable: TownOfferRefusal? = nil
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
        self.received = received
        self.claim = claim
        self.claimable = claimable
        self.notClaimable = notClaimable
    }
}

/// Why an offer running in town is not mine to claim.
public enum TownOfferRefusal: String, Codable, Sendable, CaseIterable {
    /// An ad: there is nothing to claim.
    case ad
    /// The business offers it to customers it chose, and I am not among them (which rule, it does not say).
    case notForYou = "not_for_you"
    /// It runs at set hours, and this is not one of them.
    case notNow = "not_now"
    /// I used my share of it.
    case used
    /// No coupon of it is left.
    case noneLeft = "none_left"

    /// What a person reads: "Bruno's Bakery offers this to customers it chose; it is not among yours."
    public func sentence(business: String) -> String {
        switch self {
        case .ad: "An ad: there is nothing to claim."
        case .notForYou: "\(business) offers this to customers it chose, and it is not among yours."
        case .notNow: "It runs at set hours, and this is not one of them: look again later."
        case .used: "You used this coupon already."
        case .noneLeft: "No coupon of this offer is left."
        }
    }
}
