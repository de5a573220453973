import Foundation

/// A warning shown to the recipient beside a message that looks like a scam; it never blocks the message.
public struct MessageWarning: Codable, Sendable, Hashable {
    /// `off_platform_payment`, `gift_card` or `lookalike_link`.
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// A chat message. Its text is encrypted at rest; `warnings` are for the recipient's eyes.
public struct ChatMessage: Codable, Sendable, Hashable {
    public var id: UUID
    public var conversationId: UUID
    /// The sender's username.
    public var sender: String
    public var text: String
    public var createdAt: Date
    public var warnings: [MessageWarning]

    public init(
        id: UUID,
        conversationId: UUID,
        sender: String,
        text: String,
        createdAt: Date,
        warnings: [MessageWarning]
    ) {
        self.id = id
        self.conversationId = conversationId
        self.sender = sender
        self.text = text
        self.createdAt = createdAt
        self.warnings = warnings
    }
}

/// The listing a conversation is about, as the chat list shows it.
public struct ConversationListing: Codable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var price: Money?
    public var state: ListingState
    public var thumbnailUrl: String?

    public init(id: UUID, title: String, price: Money?, state: ListingState, thumbnailUrl: String?) {
        self.id = id
        self.title = title
        self.price = price
        self.state = state
        self.thumbnailUrl = thumbnailUrl
    }
}

/// A buyer and a seller talking about one listing.
public struct Conversation: Codable, Sendable, Hashable {
    public var id: UUID
    public var listing: ConversationListing
    public var buyer: ListingSeller
    public var seller: ListingSeller
    public var lastMessage: ChatMessage?
    /// Messages to me I have not read.
    public var unread: Int
    public var updatedAt: Date

    public init(
        id: UUID,
        listing: ConversationListing,
        buyer: ListingSeller,
        seller: ListingSeller,
        lastMessage: ChatMessage?,
        unread: Int,
        updatedAt: Date
    ) {
        self.id = id
        self.listing = listing
        self.buyer = buyer
        self.seller = seller
        self.lastMessage = lastMessage
        self.unread = unread
        self.updatedAt = updatedAt
    }
}

/// `POST /v1/market/conversations`: "I'm interested" in a listing.
public struct ConversationStart: Codable, Sendable, Hashable {
    public var listingId: UUID

    public init(listingId: UUID) {
        self.listingId = listingId
    }
}

/// `POST /v1/market/conversations/{id}/messages`.
public struct MessageRequest: Codable, Sendable, Hashable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}

/// Live events of the marketplace.
public enum MarketEventType {
    /// A message in one of my conversations (to both sides). Payload: `ChatMessage`.
    public static let message = "market.message"
    /// An offer or a meetup of one of my conversations changed (to both sides). Payload: `DealUpdate`.
    public static let deal = "market.deal"
    /// A bid moved a biddable listing, or its bidding ended (to its seller and the bidders concerned). Payload: `BidUpdate`.
    public static let bid = "market.bid"
}

/// `market.bid`: where a biddable listing stands now.
public struct BidUpdate: Codable, Sendable, Hashable {
    public var listingId: UUID
    public var currentPrice: Int64
    public var bidCount: Int
    public var endsAt: Date
    public var closed: Bool

    public init(listingId: UUID, currentPrice: Int64, bidCount: Int, endsAt: Date, closed: Bool = false) {
        self.listingId = listingId
        self.currentPrice = currentPrice
        self.bidCount = bidCount
        self.endsAt = endsAt
        self.closed = closed
    }
}

/// `market.deal`: what changed in a conversation's deal, and the offer or meetup as it is now.
public struct DealUpdate: Codable, Sendable, Hashable {
    public var conversationId: UUID
    /// What happened, in a sentence for the other side ("Carla K. offered $20.00").
    public var summary: String
    public var offer: PriceOffer?
    public var meetup: Meetup?

    public init(conversationId: UUID, summary: String, offer: PriceOffer? = nil, meetup: Meetup? = nil) {
        self.conversationId = conversationId
        self.summary = summary
        self.offer = offer
        self.meetup = meetup
    }
}

/// Someone I blocked: neither of us sees the other's listings, and no message passes either way.
public struct MarketBlock: Codable, Sendable, Hashable {
    public var username: String
    public var displayName: String
    public var since: Date

    public init(username: String, displayName: String, since: Date) {
        self.username = username
        self.displayName = displayName
        self.since = since
    }
}
