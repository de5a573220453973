import Foundation

/// Where a device receives push notifications.
public enum DevicePlatform: String, Codable, Sendable, CaseIterable {
    /// A browser's Push API subscription (RFC 8030 with RFC 8291 encryption and RFC 8292 VAPID).
    case webpush
    /// An iOS app's device token (Apple Push Notification service).
    case apns
    /// An Android app's registration token (Firebase Cloud Messaging, HTTP v1 API).
    case fcm
}

/// A browser's `PushSubscription` as its `toJSON()` gives it.
public struct WebPushSubscription: Codable, Sendable, Hashable {
    public struct Keys: Codable, Sendable, Hashable {
        /// The browser's P-256 public key, uncompressed, base64url.
        public var p256dh: String
        /// The 16-byte authentication secret, base64url.
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String
    public var keys: Keys

    public init(endpoint: String, keys: Keys) {
        self.endpoint = endpoint
        self.keys = keys
    }
}

/// `POST /v1/me/devices`: a Web Push subscription, an APNs device token with the app's topic (bundle id), or an FCM
/// registration token.
public struct DeviceRegistration: Codable, Sendable, Hashable {
    public var platform: DevicePlatform
    public var subscription: WebPushSubscription?
    public var token: String?
    public var topic: String?
    /// How the device calls itself in the list ("Chrome on Android", "Anna's iPhone").
    public var name: String?

    public init(
        platform: DevicePlatform,
        subscription: WebPushSubscription? = nil,
        token: String? = nil,
        topic: String? = nil,
        name: String? = nil
    ) {
        self.platform = platform
        self.subscription = subscription
        self.token = token
        self.topic = topic
        self.name = name
    }
}

/// A device that receives the user's push notifications (`GET /v1/me/devices`). Keys and tokens are never shown.
public struct Device: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var platform: DevicePlatform
    public var name: String
    /// The push service it goes through ("fcm.googleapis.com", "api.push.apple.com").
    public var service: String
    public var createdAt: Date
    /// The last time the push service took a notification for it.
    public var lastDeliveredAt: Date?

    public init(
        id: UUID,
        platform: DevicePlatform,
        name: String,
        service: String,
        createdAt: Date,
        lastDeliveredAt: Date?
    ) {
        self.id = id
        self.platform = platform
        self.name = name
        self.service = service
        self.createdAt = createdAt
        self.lastDeliveredAt = lastDeliveredAt
    }
}

/// What a notification is about; each kind has its own channels in the user's preferences.
public enum NotificationKind: String, Codable, Sendable, CaseIterable {
    /// A business or a friend asks you to pay (they expire in minutes: quiet hours do not hold them).
    case moneyRequests = "money.requests"
    /// Someone answered a charge or request you sent.
    case moneyAnswers = "money.answers"
    /// Money arrived: a transfer, a refund.
    case moneyReceived = "money.received"
    /// Your account: a new device signed in, a password changed, an admin's decision.
    case account = "account"
    /// Loyalty cards: a punch counted, a card completed, a reward redeemed, a program ended.
    case loyalty = "loyalty"
    /// Ads and coupons from businesses (within the customer's offer settings: levels, daily limit, quiet hours).
    case offers = "offers"
    /// The campus marketplace: messages, offers and sales of my listings and the ones I asked about.
    case market = "market"
    /// Staff: a customer they know (one who paid there before) walked into their business. Off until chosen.
    case presence = "presence"

    /// Whether it still arrives in quiet hours.
    public var urgent: Bool { self == .moneyRequests || self == .account }

    public var label: String {
        switch self {
        case .moneyRequests: "Requests to pay"
        case .moneyAnswers: "Answers to my charges and requests"
        case .moneyReceived: "Money received"
        case .account: "Account and security"
        case .loyalty: "Loyalty cards"
        case .offers: "Offers and coupons"
        case .market: "Campus marketplace"
        case .presence: "When a customer you know walks in"
        }
    }
}

/// How one kind reaches the user besides the inbox and open apps (which always show it).
public struct KindPreference: Codable, Sendable, Hashable {
    public var kind: NotificationKind
    public var push: Bool
    public var email: Bool

    public init(kind: NotificationKind, push: Bool, email: Bool) {
        self.kind = kind
        self.push = push
        self.email = email
    }
}

/// Hours without push alerts, in the user's time zone ("22:00" to "07:00"); urgent kinds still arrive.
public struct QuietHours: Codable, Sendable, Hashable {
    public var from: String
    public var until: String

    public init(from: String, until: String) {
        self.from = from
        self.until = until
    }
}

/// `GET/PUT /v1/me/notifications`: per kind, push and e-mail on or off; quiet hours.
public struct NotificationPreferences: Codable, Sendable, Hashable {
    /// One entry per kind; a `PUT` may leave kinds out (they keep their setting).
    public var kinds: [KindPreference]
    public var quietHours: QuietHours?
    /// The zone quiet hours are read in (the profile's, else UTC); read only.
    public var timeZone: String?

    public init(kinds: [KindPreference], quietHours: QuietHours?, timeZone: String? = nil) {
        self.kinds = kinds
        self.quietHours = quietHours
        self.timeZone = timeZone
    }

    /// Push on for everything but `presence` (staff turn that on), e-mail off, no quiet hours: what a user has before
    /// choosing.
    public static let standard = NotificationPreferences(
        kinds: NotificationKind.allCases.map {
            KindPreference(kind: $0, push: $0 != .presence, email: $0 == .account)
        },
        quietHours: nil
    )

    public func preference(_ kind: NotificationKind) -> KindPreference {
        kinds.first { $0.kind == kind } ?? Self.standard.kinds.first { $0.kind == kind }
            ?? KindPreference(kind: kind, push: true, email: false)
    }
}

/// What a push notification shows: the service worker or the iOS app displays it, a tap opens `link`.
public struct PushPayload: Codable, Sendable, Hashable {
    /// The notification's id: a repeat delivery replaces the shown one instead of adding another.
    public var id: UUID
    public var kind: NotificationKind
    public var title: String
    public var body: String
    /// The page a tap opens, a path of the web app ("/wallet/charges").
    public var link: String
    public var sentAt: Date

    public init(id: UUID, kind: NotificationKind, title: String, body: String, link: String, sentAt: Date) {
        self.id = id
        self.kind = kind
        self.title = title
        self.body = body
        self.link = link
        self.sentAt = sentAt
    }
}

/// `GET /v1/notifications/web-push-key`: the VAPID public key a browser subscribes with.
public struct WebPushKey: Codable, Sendable, Hashable {
    /// Uncompressed P-256 point, base64url: the `applicationServerKey` of `pushManager.subscribe`.
    public var publicKey: String

    public init(publicKey: String) {
        self.publicKey = publicKey
    }
}

/// A notification as the domain that publishes it words it; who gets it is said where it is published.
public struct NotificationContent: Codable, Sendable, Hashable {
    public var kind: NotificationKind
    public var title: String
    public var body: String
    /// The page a tap opens ("/wallet/charges").
    public var link: String

    public init(kind: NotificationKind, title: String, body: String, link: String) {
        self.kind = kind
        self.title = title
        self.body = body
        self.link = link
    }
}
