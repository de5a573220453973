import Foundation
import Logging
import PlazaCore

/// Everything Plaza reads at start-up, from `PLAZA_*` environment variables (see the README's table).
public struct PlazaConfiguration: Sendable {
    /// Where the data lives.
    public enum Storage: Sendable, Equatable {
        case sqlite(path: String)
        case postgres(URL)
    }

    /// `production` serves no `/dev` pages; `dev` and `demo` show mail at `/dev/mailbox`.
    public enum Mode: String, Sendable {
        case production
        case dev
        case demo
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var storage: Storage = .sqlite(path: "plaza-data/plaza.sqlite")
    /// At least 32 bytes; signs access tokens and hashes one-time codes. `nil` until resolved at start.
    public var secretKey: String?
    /// The address users reach Plaza at, used in e-mails and to decide on `Secure` cookies.
    public var publicURL: URL?
    public var smtpURL: URL?
    public var bcryptCost = 12
    public var logLevel: Logger.Level = .info
    public var mode: Mode = .production
    public var limits = Limits()
    public var places = PlacesConfiguration()
    public var wallet = WalletConfiguration()
    public var cards = CardsConfiguration()
    /// How large a picture Plaza decodes (`PLAZA_MEDIA_MAX_PIXELS`).
    public var pictures = PictureBudget()
    /// Which card processor moves real money in and out (`PLAZA_PAYMENT_GATEWAY`). None by default: a production
    /// server takes no cards until the operator names one; `plaza demo` uses the sandbox.
    public var paymentGateway: PaymentGatewayChoice?
    /// Timeouts, connection caps, proxies, shutdown and metrics access: what keeps a public server up.
    public var network = NetworkConfiguration()
    /// Web Push's VAPID key and subject, and APNs.
    public var push = PushConfiguration()
    /// Apple and Google wallet passes of loyalty cards.
    public var passes = WalletPassConfiguration()
    /// Words no offer may use (`PLAZA_OFFER_BLOCKED_WORDS`, separated by commas): the campaign lint blocks them.
    public var offerBlockedWords: [String] = []
    /// Where Swift concurrency runs (`PLAZA_GLOBAL_EXECUTOR`): NIO's event loops unless `swift` says Swift's own pool.
    public var globalExecutor = GlobalExecutor.eventLoops
    /// The password `plaza admin create` gives the new admin (`PLAZA_ADMIN_PASSWORD`; else it is read from stdin).
    public var adminPassword: String?

    public enum GlobalExecutor: String, Sendable {
        case eventLoops = "event-loops"
        case swift
    }

    public init() {}

    /// Where the SQLite file and the generated secret key live.
    public var dataDirectory: String {
        if case .sqlite(let path) = storage { return URL(fileURLWithPath: path).deletingLastPathComponent().path }
        return "plaza-data"
    }

    /// Whether cookies must carry `Secure`: Plaza is reached over TLS.
    public var servesOverTLS: Bool { publicURL?.scheme == "https" }

    /// The base for links in e-mails.
    public var baseURL: String { publicURL?.absoluteString ?? "http://\(host):\(port)" }

    /// Reads `environment` (normally the process's), reporting every bad variable at once.
    public static func fromEnvironment(_ environment: [String: String]) throws -> PlazaConfiguration {
        var configuration = PlazaConfiguration()
        var errors: [ConfigurationError] = []
        func value(_ key: String) -> String? {
            guard let raw = environment[key]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        func fail(_ key: String, _ message: String) { errors.append(ConfigurationError(key: key, message: message)) }

        if let host = value("PLAZA_HOST") { configuration.host = host }
        if let port = value("PLAZA_PORT") {
            if let number = Int(port), (0...65535).contains(number) {
                configuration.port = number
            } else {
                fail("PLAZA_PORT", "must be a port number from 0 to 65535, not '\(port)'")
            }
        }
        if let url = value("PLAZA_DATABASE_URL") {
            do { configuration.storage = try parseStorage(url) } catch let error as ConfigurationError {
                errors.append(error)
            }
        }
        if let key = value("PLAZA_SECRET_KEY") {
            if key.utf8.count >= 32 {
                configuration.secretKey = key
            } else {
                fail("PLAZA_SECRET_KEY", "must be at least 32 characters long")
            }
        }
        if let url = value("PLAZA_PUBLIC_URL") {
            if let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil {
                configuration.publicURL = parsed
            } else {
                fail("PLAZA_PUBLIC_URL", "must be an http:// or https:// URL, not '\(url)'")
            }
        }
        if let url = value("PLAZA_SMTP_URL") {
            if let parsed = URL(string: url), ["smtp", "smtps"].contains(parsed.scheme ?? ""), parsed.host != nil {
                configuration.smtpURL = parsed
            } else {
                fail("PLAZA_SMTP_URL", "must look like smtp://user:password@host:587 or smtps://host:465, not '\(url)'")
            }
        }
        if let cost = value("PLAZA_BCRYPT_COST") {
            if let number = Int(cost), (4...31).contains(number) {
                configuration.bcryptCost = number
            } else {
                fail("PLAZA_BCRYPT_COST", "must be a whole number from 4 to 31")
            }
        }
        if let level = value("PLAZA_LOG_LEVEL") {
            if let parsed = Logger.Level(rawValue: level.lowercased()) {
                configuration.logLevel = parsed
            } else {
                fail("PLAZA_LOG_LEVEL", "must be one of trace, debug, info, notice, warning, error, critical")
            }
        }
        if let mode = value("PLAZA_MODE") {
            if let parsed = Mode(rawValue: mode) {
                configuration.mode = parsed
            } else {
                fail("PLAZA_MODE", "must be production, dev or demo")
            }
        }
        if let retention = value("PLAZA_LOCATION_RETENTION") {
            if let seconds = parseDuration(retention), seconds >= 3600 {
                configuration.places.retention = seconds
            } else {
                fail(
                    "PLAZA_LOCATION_RETENTION",
                    "must be a duration of at least an hour such as 30d, 72h or 90m, not '\(retention)'"
                )
            }
        }
        if let epsilon = value("PLAZA_MAP_EPSILON") {
            if let number = Double(epsilon), number > 0, number <= 1 {
                configuration.places.mapEpsilon = number
            } else {
                fail(
                    "PLAZA_MAP_EPSILON",
                    "must be a number above 0 and at most 1 (per metre; 0.01 gives about 200 m of expected error)"
                )
            }
        }
        if let tiles = value("PLAZA_MAP_TILES") {
            if tiles.hasSuffix(".mbtiles"), !tiles.contains("{") {
                configuration.places.mapTilesFile = tiles
            } else if tiles.contains("{z}"), tiles.contains("{x}"), tiles.contains("{y}"), tiles.hasPrefix("http") {
                configuration.places.mapTilesURL = tiles
            } else {
                fail(
                    "PLAZA_MAP_TILES",
                    "must be a tile URL template with {z}, {x} and {y} (https://tiles.example/{z}/{x}/{y}.png) or the path of an .mbtiles file"
                )
            }
        }
        if let attribution = value("PLAZA_MAP_ATTRIBUTION") { configuration.places.mapAttribution = attribution }
        if let geocoder = value("PLAZA_GEOCODER_URL") {
            if let url = URL(string: geocoder), ["http", "https"].contains(url.scheme ?? ""), url.host != nil {
                configuration.places.geocoderURL = url
            } else {
                fail(
                    "PLAZA_GEOCODER_URL",
                    "must be the http(s) address of a Nominatim-compatible geocoder, such as https://nominatim.example"
                )
            }
        }
        if let zone = value("PLAZA_TIME_ZONE") {
            if let parsed = TimeZone(identifier: zone) {
                configuration.places.timeZone = parsed
                configuration.places.timeZoneName = zone
            } else {
                fail("PLAZA_TIME_ZONE", "must be an IANA time zone such as Europe/Berlin, not '\(zone)'")
            }
        }
        if let currencies = value("PLAZA_CURRENCIES") {
            let codes = currencies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            if !codes.isEmpty, codes.allSatisfy(Money.isCurrencyCode) {
                configuration.wallet.currencies = codes
            } else {
                fail("PLAZA_CURRENCIES", "must be ISO 4217 codes separated by commas, such as USD or USD,EUR")
            }
        }
        if let shipping = value("PLAZA_CARDS_SHIPPING") {
            if let amount = Int64(shipping), (0...100_000).contains(amount) {
                configuration.cards.shipping = amount
            } else {
                fail(
                    "PLAZA_CARDS_SHIPPING",
                    "must be the flat shipping of a card order in minor units (499 is $4.99), not '\(shipping)'"
                )
            }
        }
        if let rate = value("PLAZA_CARDS_TAX_RATE") {
            if let basisPoints = Int(rate), (0...5_000).contains(basisPoints) {
                configuration.cards.taxBasisPoints = basisPoints
            } else {
                fail("PLAZA_CARDS_TAX_RATE", "must be the sales tax in basis points (825 is 8.25 %), not '\(rate)'")
            }
        }
        if let ttl = value("PLAZA_CHARGE_TTL") {
            if let seconds = parseDuration(ttl), (10...3_600).contains(seconds) {
                configuration.wallet.chargeTTL = seconds
            } else {
                fail("PLAZA_CHARGE_TTL", "must be a duration from 10s to 1h such as 5m or 90s, not '\(ttl)'")
            }
        }
        if let executor = value("PLAZA_GLOBAL_EXECUTOR") {
            if let parsed = GlobalExecutor(rawValue: executor.lowercased()) {
                configuration.globalExecutor = parsed
            } else {
                fail("PLAZA_GLOBAL_EXECUTOR", "must be event-loops (the default) or swift, not '\(executor)'")
            }
        }
        // Not trimmed: a password may begin or end with spaces.
        if let words = value("PLAZA_OFFER_BLOCKED_WORDS") {
            configuration.offerBlockedWords = words.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            .filter { !$0.isEmpty }
        }
        configuration.adminPassword = environment["PLAZA_ADMIN_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.readPaymentGateway(value, fail: fail)
        configuration.network.read(value, fail: fail)
        configuration.push.read(value, fail: fail)
        configuration.pictures.read(value, fail: fail)
        configuration.passes.read(value, fail: fail)
        configuration.wallet.limits.read(value, fail: fail)
        if case .postgres = configuration.storage, configuration.secretKey == nil {
            fail(
                "PLAZA_SECRET_KEY",
                "is required with PostgreSQL, so that every Plaza process signs tokens with the same key"
            )
        }
        if !errors.isEmpty { throw ConfigurationErrors(errors: errors) }
        return configuration
    }

    /// `30d`, `72h`, `90m`, `45s` or plain seconds.
    static func parseDuration(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        if let unit = text.last.flatMap({ units[$0] }), let number = Double(text.dropLast()), number.isFinite,
            number > 0
        {
            return number * unit
        }
        return Double(text).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    static func parseStorage(_ text: String) throws -> Storage {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard let url = URL(string: text) else {
                throw ConfigurationError(key: "PLAZA_DATABASE_URL", message: "is not a valid URL")
            }
            return .postgres(url)
        }
        if text.hasPrefix("sqlite://") { return .sqlite(path: String(text.dropFirst("sqlite://".count))) }
        if text.hasPrefix("sqlite:") { return .sqlite(path: String(text.dropFirst("sqlite:".count))) }
        throw ConfigurationError(
            key: "PLAZA_DATABASE_URL",
            message: "must be sqlite:PATH or postgres://user:password@host:5432/database"
        )
    }
}

/// The card processors Plaza can talk to.
public enum PaymentGatewayChoice: Sendable, Equatable {
    /// Test cards, no real money (`plaza demo`, trying Plaza out): every page that takes a card says "test mode".
    case sandbox
    /// Stripe: cards on its hosted Checkout page, withdrawals to Connect accounts.
    case stripe(StripeSettings)
}

/// `PLAZA_STRIPE_SECRET_KEY`, `PLAZA_STRIPE_WEBHOOK_SECRET` and (for a stand-in or a proxy) `PLAZA_STRIPE_API_URL`.
public struct StripeSettings: Sendable, Equatable {
    /// `sk_live_...`, `sk_test_...` or a restricted `rk_...` key.
    public var secretKey: String
    /// The webhook endpoint's signing secret, `whsec_...`.
    public var webhookSecret: String
    /// `https://api.stripe.com`; tests point it at a local stand-in.
    public var apiURL: String

    public init(secretKey: String, webhookSecret: String, apiURL: String = "https://api.stripe.com") {
        self.secretKey = secretKey
        self.webhookSecret = webhookSecret
        self.apiURL = apiURL.hasSuffix("/") ? String(apiURL.dropLast()) : apiURL
    }
}

extension PlazaConfiguration {
    /// `PLAZA_PAYMENT_GATEWAY=sandbox`, or Stripe when `PLAZA_STRIPE_SECRET_KEY` is set (`PLAZA_PAYMENT_GATEWAY=stripe`
    /// may say so too). Stripe needs the webhook secret and `PLAZA_PUBLIC_URL`, where its pages send customers back.
    mutating func readPaymentGateway(_ value: (String) -> String?, fail: (String, String) -> Void) {
        let choice = value("PLAZA_PAYMENT_GATEWAY")?.lowercased()
        let key = value("PLAZA_STRIPE_SECRET_KEY")
        switch choice {
        case nil where key == nil: return
        case "sandbox":
            if key != nil {
                fail("PLAZA_STRIPE_SECRET_KEY", "is set while PLAZA_PAYMENT_GATEWAY is sandbox: remove one of them")
            }
            paymentGateway = .sandbox
            return
        case nil, "stripe": break
        case .some(let other):
            fail(
                "PLAZA_PAYMENT_GATEWAY",
                "must be stripe (with PLAZA_STRIPE_SECRET_KEY) or sandbox (test cards only, no real money), not '\(other)'"
            )
            return
        }
        guard let key, key.hasPrefix("sk_") || key.hasPrefix("rk_") else {
            fail(
                "PLAZA_STRIPE_SECRET_KEY",
                "must be a Stripe secret key (sk_live_..., sk_test_... or a restricted rk_... key)"
            )
            return
        }
        guard let secret = value("PLAZA_STRIPE_WEBHOOK_SECRET"), secret.hasPrefix("whsec_") else {
            fail(
                "PLAZA_STRIPE_WEBHOOK_SECRET",
                "must be the signing secret (whsec_...) of the webhook endpoint <PLAZA_PUBLIC_URL>/v1/webhooks/stripe"
            )
            return
        }
        if publicURL == nil {
            fail("PLAZA_PUBLIC_URL", "is required with Stripe: its payment pages send customers back there")
        }
        var settings = StripeSettings(secretKey: key, webhookSecret: secret)
        if let api = value("PLAZA_STRIPE_API_URL") {
            guard let url = URL(string: api), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                fail("PLAZA_STRIPE_API_URL", "must be an http:// or https:// URL, not '\(api)'")
                return
            }
            settings = StripeSettings(secretKey: key, webhookSecret: secret, apiURL: api)
        }
        paymentGateway = .stripe(settings)
    }
}

/// Limits that tests and operators may tighten; the defaults follow the accounts issue.
public struct Limits: Sendable {
    public var accessTokenLifetime: TimeInterval = 15 * 60
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    public var codeLifetime: TimeInterval = 15 * 60
    public var codeAttempts = 5
    public var rateWindow: TimeInterval = 15 * 60
    public var loginFailuresPerAccount = 10
    public var loginFailuresPerAddress = 30
    /// The first wait once an account's failures reach the limit; each further failure doubles it.
    public var loginBackOffBase: TimeInterval = 1
    /// Code e-mails (verify, resend, reset) per address and per account in one window.
    public var codeMailsPerAccount = 5
    public var codeMailsPerAddress = 20
    public var signupsPerAddress = 20
    public var maxRequestBody = 1 << 20
    public init() {}
}

/// Location privacy and crowd settings.
public struct PlacesConfiguration: Sendable {
    /// How long raw points are kept (`PLAZA_LOCATION_RETENTION`, default 30 days).
    public var retention: TimeInterval = 30 * 86_400
    /// Geo-indistinguishability parameter per metre of the map dots (`PLAZA_MAP_EPSILON`); expected error 2/ε.
    public var mapEpsilon = 0.01
    /// Raster tiles under the map from a tile server (`PLAZA_MAP_TILES` as `https://…/{z}/{x}/{y}.png`).
    public var mapTilesURL: String?
    /// Raster tiles from an MBTiles file that Plaza serves itself at `/tiles/{z}/{x}/{y}` (`PLAZA_MAP_TILES` as a path).
    public var mapTilesFile: String?
    /// Who made the tiles, shown on the map (`PLAZA_MAP_ATTRIBUTION`, HTML allowed: a link to the licence).
    public var mapAttribution = ""
    /// A Nominatim-compatible geocoder for address search (`PLAZA_GEOCODER_URL`); none: coordinates and the map only.
    public var geocoderURL: URL?
    /// The operator's time zone for popular times and opening hours (`PLAZA_TIME_ZONE`, default UTC).
    public var timeZone = TimeZone(identifier: "UTC")!
    /// The name as configured (Foundation may report `UTC` as `GMT`).
    public var timeZoneName = "UTC"
    /// How often stale stays are closed and their exits announced.
    public var sweepInterval: TimeInterval = 15
    public init() {}

    /// The Gregorian calendar in the operator's time zone: weekdays and hours of popular times.
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

/// The card shop's shipping and tax, as the operator sets them.
public struct CardsConfiguration: Sendable {
    /// A flat rate per order in minor units (`PLAZA_CARDS_SHIPPING`, default 499).
    public var shipping: Int64 = 499
    /// Sales tax on the goods, in basis points (`PLAZA_CARDS_TAX_RATE`, default 0: prices include it).
    public var taxBasisPoints = 0
    public init() {}
}

/// Money settings.
public struct WalletConfiguration: Sendable {
    /// The currencies wallets hold (`PLAZA_CURRENCIES`, default USD); the first is the default one.
    public var currencies = ["USD"]
    /// How long a charge waits for the customer (`PLAZA_CHARGE_TTL`, default 5 minutes).
    public var chargeTTL: TimeInterval = 300
    /// How often expired charges are swept (a pending charge past its expiry is refused at once regardless).
    public var sweepInterval: TimeInterval = 5
    /// Top-up and withdrawal limits (`PLAZA_LIMIT_*`, `PLAZA_NEW_ACCOUNT_DAYS`).
    public var limits = FundingLimitSet()
    public init() {}
}
