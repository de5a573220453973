import Foundation

/// What an inbox entry is about.
public enum InboxEntryKind: String, Codable, Sendable, CaseIterable {
    /// A business asked you to pay (its `status` follows the charge: `pending` until you answer).
    case chargeRequested = "charge_requested"
    /// A customer answered a charge you sent from the counter (or let it expire).
    case chargeAnswered = "charge_answered"
    /// Money arrived: a transfer from another user, or a refund from a business.
    case moneyReceived = "money_received"
    /// A top-up did not go through: no money arrived (`note` says why, as the processor put it).
    case topUpFailed = "top_up_failed"
    /// A business gave you a loyalty card's reward: the receipt (no money moved: `amount` 0 in `XXX`).
    case rewardRedeemed = "reward_redeemed"
    /// An ad or coupon reached you (`referenceId` is the offer's; no money moved: `amount` 0 in `XXX`).
    case offerReceived = "offer_received"
    /// A card shop order was paid: the receipt (`amount` negative, `link` the order).
    case cardOrderPaid = "card_order_paid"
    /// A cancelled card shop order's money came back to the wallet.
    case cardOrderRefunded = "card_order_refunded"
    /// A moderator decided about you (a warning, a suspension, a removed listing): `note` is the reason you read, `link`
    /// where to see it and appeal (no money moved: `amount` 0 in `XXX`, `counterpart` Plaza).
    case decision
    /// A second factor was added to or removed from your account, or new recovery codes replaced the old ones
    /// (no money moved: `amount` 0 in `XXX`, `counterpart` Plaza; `link` the account's security section).
    case security
}

/// One line of `GET /v1/inbox`: something that happened to you, newest first.
public struct InboxEntry: Codable, Sendable, Hashable {
    /// The charge's id (charge entries) or the history entry's id (money received).
    public var id: UUID
    public var kind: InboxEntryKind
    /// One sentence for the list ("Anna sent you $15.00."); apps may write their own from the other fields.
    public var title: String
    public var note: String?
    public var amount: Int64
    public var currency: String
    /// Who it came from: the business (charges asked of you, refunds), the customer (charges answered) or the sender.
    public var counterpart: Party
    /// The charge's status for charge entries; absent for money received.
    public var status: ChargeStatus?
    /// The charge, transfer or refund this entry is about.
    public var referenceId: UUID
    /// Where the web app shows it (`/wallet/charges`, `/wallet/receipts/{id}`, `/wallet`).
    public var link: String
    public var occurredAt: Date
    /// Newer than the last `POST /v1/inbox/seen`.
    public var unread: Bool

    public init(
        id: UUID,
        kind: InboxEntryKind,
        title: String,
        note: String?,
        amount: Int64,
        currency: String,
        counterpart: Party,
        status: ChargeStatus?,
        referenceId: UUID,
        link: String,
        occurredAt: Date,
        unread: Bool
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.note = note
        self.amount = amount
        self.currency = currency
        self.counterpart = counterpart
        self.status = status
        self.referenceId = referenceId
        self.link = link
        self.occurredAt = occurredAt
        self.unread = unread
    }
}

/// `GET /v1/inbox`: a page of entries, how many are unread, and the marker that `POST /v1/inbox/seen` takes.
public struct InboxPage: Codable, Sendable, Hashable {
    public var items: [InboxEntry]
    public var nextCursor: String?
    /// Unread entries in the whole inbox, counted up to `InboxPage.unreadLimit` (show "99+" beyond).
    public var unreadCount: Int
    /// Names the newest entry of the inbox (first page only): send it back to mark everything up to it seen.
    public var seenMarker: String?

    /// Unread entries are counted up to this many.
    public static let unreadLimit = 99

    public init(items: [InboxEntry], nextCursor: String?, unreadCount: Int, seenMarker: String?) {
        self.items = items
        self.nextCursor = nextCursor
        self.unreadCount = unreadCount
        self.seenMarker = seenMarker
    }
}

/// `POST /v1/inbox/seen`: everything up to the entry `through` names (a page's `seenMarker`) counts as seen;
/// without it, everything up to now.
public struct MarkInboxSeenRequest: Codable, Sendable, Hashable {
    public var through: String?

    public init(through: String? = nil) {
        self.through = through
    }
}
