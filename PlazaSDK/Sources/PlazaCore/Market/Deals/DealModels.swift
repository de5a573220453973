import Foundation

/// A buyer's price offer on a listing: `pending` (the seller answers), `countered` (the seller named another price;
/// the buyer answers), then `accepted` (the listing is reserved for the buyer), `declined`, `cancelled` (either side,
/// or the meetup passed without a handshake) or `completed` (sold at the handshake).
public enum PriceOfferState: String, Codable, Sendable, CaseIterable, Hashable {
    case pending, countered, accepted, declined, cancelled, completed

    /// Still open: it may be answered, paid or cancelled.
    public var isOpen: Bool { [.pending, .countered, .accepted].contains(self) }
}

/// Where a buyer's money for an accepted offer is: `held` by Plaza until the handshake, then `released` to the seller,
/// or `refunded` to the buyer when the deal falls through.
public enum DealPaymentState: String, Codable, Sendable, CaseIterable, Hashable {
    case held, released, refunded
}

/// `POST /v1/market/offers/{id}/pay`: the buyer's money, held until the handshake.
public struct DealPayment: Codable, Sendable, Hashable {
    public var state: DealPaymentState
    public var amount: Int64
    public var currency: String
    public var heldAt: Date
    /// When it was released or refunded.
    public var settledAt: Date?

    public init(state: DealPaymentState, amount: Int64, currency: String, heldAt: Date, settledAt: Date?) {
        self.state = state
        self.amount = amount
        self.currency = currency
        self.heldAt = heldAt
        self.settledAt = settledAt
    }
}

/// A price offer, as its buyer and the listing's seller see it.
public struct PriceOffer: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var listingId: UUID
    /// The buyer's conversation with the seller about the listing (the offer opens it).
    public var conversationId: UUID
    public var buyer: ListingSeller
    /// The price on the table: the buyer's offer, or the seller's counter.
    public var amount: Int64
    public var currency: String
    public var state: PriceOfferState
    /// The username of whoever named `amount` last.
    public var proposedBy: String
    public var payment: DealPayment?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID,
        listingId: UUID,
        conversationId: UUID,
        buyer: ListingSeller,
        amount: Int64,
        currency: String,
        state: PriceOfferState,
        proposedBy: String,
        payment: DealPayment?,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.listingId = listingId
        self.conversationId = conversationId
        self.buyer = buyer
        self.amount = amount
        self.currency = currency
        self.state = state
        self.proposedBy = proposedBy
        self.payment = payment
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `POST /v1/market/listings/{id}/offers` and `POST /v1/market/offers/{id}/counter`: a price in minor units of the
/// listing's currency.
public struct PriceOfferRequest: Codable, Sendable, Hashable {
    public var amount: Int64

    public init(amount: Int64) {
        self.amount = amount
    }
}

/// `proposed`, then `accepted` or `declined` by the other side; `superseded` by a later proposal or acceptance in the
/// same conversation, `cancelled` by either side, `completed` by the handshake, `expired` when its window passed.
public enum MeetupState: String, Codable, Sendable, CaseIterable, Hashable {
    case proposed, accepted, declined, superseded, cancelled, completed, expired
}

/// Where two students meet: one of the campus's safe spots, or a point they agree on.
public struct MeetupPlace: Codable, Sendable, Hashable {
    public var spotId: UUID?
    /// The safe spot's name, or nil for a point.
    public var name: String?
    public var latitude: Double
    public var longitude: Double

    public init(spotId: UUID?, name: String?, latitude: Double, longitude: Double) {
        self.spotId = spotId
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A meetup proposed in a conversation. The handshake is possible from `windowStart` to `windowEnd`.
public struct Meetup: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var conversationId: UUID
    public var listingId: UUID
    /// The proposer's username: the other side accepts or declines.
    public var proposedBy: String
    public var place: MeetupPlace
    public var at: Date
    public var windowStart: Date
    public var windowEnd: Date
    public var state: MeetupState
    public var createdAt: Date

    public init(
        id: UUID,
        conversationId: UUID,
        listingId: UUID,
        proposedBy: String,
        place: MeetupPlace,
        at: Date,
        windowStart: Date,
        windowEnd: Date,
        state: MeetupState,
        createdAt: Date
    ) {
        self.id = id
        self.conversationId = conversationId
        self.listingId = listingId
        self.proposedBy = proposedBy
        self.place = place
        self.at = at
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.state = state
        self.createdAt = createdAt
    }
}

/// `POST /v1/market/conversations/{id}/meetups`: a safe spot (`spotId`) or a point (`latitude`, `longitude`), and when.
public struct MeetupRequest: Codable, Sendable, Hashable {
    public var spotId: UUID?
    public var latitude: Double?
    public var longitude: Double?
    public var at: Date

    public init(spotId: UUID? = nil, latitude: Double? = nil, longitude: Double? = nil, at: Date) {
        self.spotId = spotId
        self.latitude = latitude
        self.longitude = longitude
        self.at = at
    }
}

/// `POST /v1/market/meetups/{id}/handshake`: what the seller's phone shows, once. `token` goes in the QR, `code` is
/// read aloud or typed. A new handshake replaces the previous one.
public struct Handshake: Codable, Sendable, Hashable {
    public var code: String
    public var token: String
    public var expiresAt: Date

    public init(code: String, token: String, expiresAt: Date) {
        self.code = code
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/market/meetups/{id}/handshake/confirm`: the buyer's scan (`token`) or typed `code`.
public struct HandshakeConfirmation: Codable, Sendable, Hashable {
    public var code: String?
    public var token: String?

    public init(code: String? = nil, token: String? = nil) {
        self.code = code
        self.token = token
    }
}

/// What a confirmed handshake did: the listing sold to the buyer, and the payment released (nil: none was held).
public struct HandshakeResult: Codable, Sendable, Hashable {
    public var listing: Listing
    public var payment: DealPayment?

    public init(listing: Listing, payment: DealPayment?) {
        self.listing = listing
        self.payment = payment
    }
}

/// The deal in a conversation, as its page and apps show it: the offers on the table, the meetups.
public struct ConversationDeal: Codable, Sendable, Hashable {
    public var offers: [PriceOffer]
    public var meetups: [Meetup]

    public init(offers: [PriceOffer], meetups: [Meetup]) {
        self.offers = offers
        self.meetups = meetups
    }
}

/// `PUT /v1/market/meetups/{id}/location-share`: whether I show the other side where I am for this meetup.
public struct LocationShareRequest: Codable, Sendable, Hashable {
    public var on: Bool

    public init(on: Bool) {
        self.on = on
    }
}

/// `GET /v1/market/meetups/{id}/location`: whether each side shares, and where the other side is (when they share, in
/// the sharing window, and not inside one of their private zones).
public struct MeetupLocation: Codable, Sendable, Hashable {
    public var sharing: Bool
    public var otherSharing: Bool
    /// From 15 minutes before the meetup until it ends (or the handshake).
    public var from: Date
    public var until: Date
    public var other: SharedPosition?

    public init(sharing: Bool, otherSharing: Bool, from: Date, until: Date, other: SharedPosition?) {
        self.sharing = sharing
        self.otherSharing = otherSharing
        self.from = from
        self.until = until
        self.other = other
    }
}

/// A newest position, as another person may see it for a meetup.
public struct SharedPosition: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var recordedAt: Date

    public init(latitude: Double, longitude: Double, recordedAt: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.recordedAt = recordedAt
    }
}

extension DealRules {
    /// Sharing where one is for a meetup starts this long before it.
    public static let shareBefore: TimeInterval = 15 * 60
    /// A position older than this is not shown.
    public static let freshPosition: TimeInterval = 10 * 60
}
