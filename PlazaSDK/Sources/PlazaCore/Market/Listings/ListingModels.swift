import Foundation

public enum ListingCondition: String, Codable, Sendable, CaseIterable, Hashable {
    case new
    case likeNew = "like_new"
    case good, fair, poor
}

/// `active → reserved → sold | removed` (a seller may also mark an active listing sold at once).
public enum ListingState: String, Codable, Sendable, CaseIterable, Hashable {
    case active, reserved, sold, removed
}

/// The feed's order.
public enum ListingSort: String, Codable, Sendable, CaseIterable, Hashable {
    case newest
    case priceAscending = "price_asc"
    case priceDescending = "price_desc"
}

/// `POST /v1/market/listings`: a photo, a price (or free), a title, a category and a description, as the brief asks.
public struct ListingRequest: Codable, Sendable, Hashable {
    public var title: String
    public var description: String
    /// Nil with `free: true`.
    public var price: Money?
    public var free: Bool?
    /// A slug of the operator's categories.
    public var category: String
    public var condition: ListingCondition
    /// 1–10 pictures uploaded with `POST /v1/media`, in the order shown.
    public var photoIds: [UUID]
    /// Sold by bidding from `price` until `endsAt`.
    public var biddable: BiddingTerms?

    public init(
        title: String,
        description: String,
        price: Money? = nil,
        free: Bool? = nil,
        category: String,
        condition: ListingCondition,
        photoIds: [UUID],
        biddable: BiddingTerms? = nil
    ) {
        self.biddable = biddable
        self.title = title
        self.description = description
        self.price = price
        self.free = free
        self.category = category
        self.condition = condition
        self.photoIds = photoIds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        description = try container.decode(String.self, forKey: .description)
        price = try container.decodeUnlessNull(Money.self, forKey: .price)
        free = try container.decodeUnlessNull(Bool.self, forKey: .free)
        category = try container.decode(String.self, forKey: .category)
        condition = try container.decode(ListingCondition.self, forKey: .condition)
        photoIds = try container.decode([UUID].self, forKey: .photoIds)
        biddable = try container.decodeUnlessNull(BiddingTerms.self, forKey: .biddable)
    }
}

/// `PATCH /v1/market/listings/{id}`: the fields sent change; the rest stay.
public struct ListingChange: Codable, Sendable, Hashable {
    public var title: String?
    public var description: String?
    public var price: Money?
    public var free: Bool?
    public var category: String?
    public var condition: ListingCondition?
    public var photoIds: [UUID]?

    public init(
        title: String? = nil,
        description: String? = nil,
        price: Money? = nil,
        free: Bool? = nil,
        category: String? = nil,
        condition: ListingCondition? = nil,
        photoIds: [UUID]? = nil
    ) {
        self.title = title
        self.description = description
        self.price = price
        self.free = free
        self.category = category
        self.condition = condition
        self.photoIds = photoIds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeUnlessNull(String.self, forKey: .title)
        description = try container.decodeUnlessNull(String.self, forKey: .description)
        price = try container.decodeUnlessNull(Money.self, forKey: .price)
        free = try container.decodeUnlessNull(Bool.self, forKey: .free)
        category = try container.decodeUnlessNull(String.self, forKey: .category)
        condition = try container.decodeUnlessNull(ListingCondition.self, forKey: .condition)
        photoIds = try container.decodeUnlessNull([UUID].self, forKey: .photoIds)
    }
}

public struct ListingPhoto: Codable, Sendable, Hashable {
    public var id: UUID
    public var url: String
    public var thumbnailUrl: String

    public init(id: UUID, url: String, thumbnailUrl: String) {
        self.id = id
        self.url = url
        self.thumbnailUrl = thumbnailUrl
    }
}

/// Who sells: their Plaza username and name, never their campus address. A listing's seller also says how others
/// rated them, since when they are on Plaza and how many of their listings sold on Plaza (nil where the same shape
/// names someone else: a buyer, a rater, a counterpart).
public struct ListingSeller: Codable, Sendable, Hashable {
    public var username: String
    public var displayName: String
    /// The ratings shown on their profile (`GET /v1/market/users/{username}`).
    public var rating: RatingSummary?
    /// When their account was created.
    public var memberSince: Date?
    /// How many of their listings were sold to someone on Plaza.
    public var sales: Int?

    public init(
        username: String,
        displayName: String,
        rating: RatingSummary? = nil,
        memberSince: Date? = nil,
        sales: Int? = nil
    ) {
        self.username = username
        self.displayName = displayName
        self.rating = rating
        self.memberSince = memberSince
        self.sales = sales
    }
}

public struct Listing: Codable, Sendable, Hashable {
    public var id: UUID
    public var state: ListingState
    public var title: String
    public var description: String
    /// Nil when free.
    public var price: Money?
    public var free: Bool
    public var category: String
    public var condition: ListingCondition
    public var photos: [ListingPhoto]
    public var seller: ListingSeller
    public var createdAt: Date
    public var updatedAt: Date
    /// The buyer's username once sold to someone on Plaza; nil when sold elsewhere or not sold.
    public var soldTo: String?
    /// A listing sold by bidding: where it stands (`price` is its start).
    public var bidding: Bidding?

    public init(
        id: UUID,
        state: ListingState,
        title: String,
        description: String,
        price: Money?,
        free: Bool,
        category: String,
        condition: ListingCondition,
        photos: [ListingPhoto],
        seller: ListingSeller,
        createdAt: Date,
        updatedAt: Date,
        soldTo: String? = nil,
        bidding: Bidding? = nil
    ) {
        self.bidding = bidding
        self.id = id
        self.state = state
        self.title = title
        self.description = description
        self.price = price
        self.free = free
        self.category = category
        self.condition = condition
        self.photos = photos
        self.seller = seller
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.soldTo = soldTo
    }
}

/// `POST /v1/market/listings/{id}/sold`: to a Plaza user (their username), or elsewhere (no buyer).
public struct ListingSale: Codable, Sendable, Hashable {
    public var buyer: String?

    public init(buyer: String? = nil) {
        self.buyer = buyer
    }
}

/// The feed's filters: words (title, description, seller), a category, conditions, a price range, a seller; an order.
public struct ListingQuery: Sendable, Hashable {
    public var text: String?
    public var category: String?
    public var condition: ListingCondition?
    public var minPrice: Int64?
    public var maxPrice: Int64?
    public var seller: String?
    public var sort: ListingSort

    public init(
        text: String? = nil,
        category: String? = nil,
        condition: ListingCondition? = nil,
        minPrice: Int64? = nil,
        maxPrice: Int64? = nil,
        seller: String? = nil,
        sort: ListingSort = .newest
    ) {
        self.text = text
        self.category = category
        self.condition = condition
        self.minPrice = minPrice
        self.maxPrice = maxPrice
        self.seller = seller
        self.sort = sort
    }
}

/// A student as other students of their campus see them: never their campus address.
public struct MarketProfile: Codable, Sendable, Hashable {
    public var username: String
    public var displayName: String
    /// When they joined Plaza.
    public var memberSince: Date
    public var itemsSold: Int
    public var activeListings: Int
    /// Ratings from the other sides of their handshakes, once shown.
    public var rating: RatingSummary
    public var bio: String?
    public var photo: ListingPhoto?

    public init(
        username: String,
        displayName: String,
        memberSince: Date,
        itemsSold: Int,
        activeListings: Int,
        rating: RatingSummary = RatingSummary(average: nil, count: 0),
        bio: String? = nil,
        photo: ListingPhoto? = nil
    ) {
        self.bio = bio
        self.photo = photo
        self.username = username
        self.displayName = displayName
        self.memberSince = memberSince
        self.itemsSold = itemsSold
        self.activeListings = activeListings
        self.rating = rating
    }
}

/// `PATCH /v1/market/me/profile`: the fields sent change (an empty bio, or `removePhoto`, clears them).
public struct MarketProfileChange: Codable, Sendable, Hashable {
    public var bio: String?
    /// A picture uploaded with `POST /v1/media`.
    public var photoId: UUID?
    public var removePhoto: Bool?

    public init(bio: String? = nil, photoId: UUID? = nil, removePhoto: Bool? = nil) {
        self.bio = bio
        self.photoId = photoId
        self.removePhoto = removePhoto
    }
}
