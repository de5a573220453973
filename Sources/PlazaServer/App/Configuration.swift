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
    /// How long a request waits for the database: a connection, a statement, a transaction (`PLAZA_DATABASE_TIMEOUT`).
    /// Past it the request is answered 503 with `Retry-After`; `nil` waits as long as it takes (commands, tests).
    public var databaseTimeout: Duration? = .seconds(5)
    /// At least 32 bytes; signs access tokens and hashes one-time codes. `nil` until resolved at start.
    public var secretKey: String?
    /// The address users reach Plaza at, used in e-mails and to decide on `Secure` cookies.
    public var publicURL: URL?
    public var smtpURL: URL?
    public var bcryptCost = 12
    public var logLevel: Logger.Level = .info
    public var mode: Mode = .production
    /// The pages' language when neither the account nor the browser names one offered (`PLAZA_DEFAULT_LANGUAGE`).
    public var defaultLanguage = "en"
    public var limits = Limits()
    public var places = PlacesConfiguration()
    public var wallet = WalletConfiguration()
    /// When money asks for a second factor (`PLAZA_SECOND_FACTOR_AMOUNT`).
    public var secondFactors = SecondFactorConfiguration()
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
    /// Copies of the SQLite database `plaza serve` keeps by itself (`PLAZA_BACKUP_DIR` and friends).
    public var backups = BackupConfiguration()
    /// Where traces go (`PLAZA_OTEL_ENDPOINT`, an OTLP/HTTP base such as `http://127.0.0.1:4318`); nil sends none.
    public var otelEndpoint: URL?
    /// The traces' `service.name` (`OTEL_SERVICE_NAME`).
    public var otelServiceName = "plaza"
    /// How often the metrics go to the collector's `/v1/metrics` (with traces: `PLAZA_OTEL_ENDPOINT`).
    public var otelMetricsInterval: Duration = .seconds(10)

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
