import Crypto
import Foundation
import HTTPTypes
import PlazaCore

/// A card processor, shaped like the real ones: every call is idempotent by key and answers at once with the
/// processor's id; how a payment ends arrives later as a signed webhook at `POST /v1/webhooks/<webhookName>`.
/// `SandboxGateway` is the built-in one for demos and tests, `StripeGateway` the real one.
protocol PaymentGateway: Sendable {
    /// Test cards and no real money: every page that takes a card says so.
    var isTestMode: Bool { get }
    /// Where the customer types their card: on Plaza's own form, or on the processor's hosted page (then card numbers
    /// never touch Plaza).
    var cardEntry: CardEntry { get }
    /// The last segment of the webhook path this processor posts to (`gateway`, `stripe`).
    var webhookName: String { get }
    /// Whether a user connects a payout account with the processor before withdrawing (Stripe Connect).
    var needsPayoutAccount: Bool { get }
    /// The origins of the processor's pages Plaza's forms send browsers to (its CSP `form-action` allows them).
    var pageOrigins: [String] { get }

    /// Starts taking `payment.amount`; for a hosted page, the answer says where to send the customer.
    func startPayment(_ payment: PaymentStart, idempotencyKey: String) async throws -> StartedPayment
    /// Captures an authorized payment (the processors that authorize first).
    func capture(paymentId: String, idempotencyKey: String) async throws
    /// Ends a hosted payment the customer walked away from: `false` when it was paid already.
    func cancelPayment(id: String) async throws -> Bool
    /// How a payment whose webhook is overdue ended, asked of the processor: `nil` while it is still open.
    func outcome(ofPayment id: String, reference: UUID) async throws -> GatewayOutcome?
    /// Pays money out to the bank account on file (`destination`: the user's payout account, when the processor needs one).
    func payout(
        amount: Int64,
        currency: String,
        reference: UUID,
        destination: String?,
        idempotencyKey: String
    ) async throws -> PayoutResult
    /// Opens a payout account for `user` with the processor; its id.
    func createPayoutAccount(user: UUID, email: String, idempotencyKey: String) async throws -> String
    /// The processor's page where the user enters their bank details, coming back to `returnURL`.
    func payoutAccountLink(account: String, returnURL: String, refreshURL: String) async throws -> String
    /// Whether money can be paid out to `account` yet.
    func payoutAccountReady(account: String) async throws -> Bool
    /// Checks a webhook's signature and reads it: what it means for Plaza (nothing for events Plaza ignores).
    /// Throws `PlazaError` 401 for a missing, wrong or stale signature and 400 for a body it cannot read.
    func outcomes(ofWebhook body: Data, headers: HTTPFields, now: Date) throws -> [GatewayOutcome]
    /// Where webhooks go, once the server listens (the in-process sandbox; a real processor is told in its dashboard).
    func deliverWebhooks(to url: String)
}

extension PaymentGateway {
    var needsPayoutAccount: Bool { false }
    var pageOrigins: [String] { [] }
    func createPayoutAccount(user: UUID, email: String, idempotencyKey: String) async throws -> String {
        throw GatewayError(message: "this processor pays out without payout accounts")
    }
    func payoutAccountLink(account: String, returnURL: String, refreshURL: String) async throws -> String {
        throw GatewayError(message: "this processor pays out without payout accounts")
    }
    func payoutAccountReady(account: String) async throws -> Bool { true }
    func outcome(ofPayment id: String, reference: UUID) async throws -> GatewayOutcome? { nil }
    func deliverWebhooks(to url: String) {}
}

enum CardEntry: Sendable {
    /// Plaza's own form takes the number (the sandbox's test cards).
    case plazaForm
    /// The processor's page takes it; Plaza sends the customer there and gets them back at its return URL.
    case hostedPage
}

struct PaymentStart: Sendable {
    /// Our top-up id.
    var reference: UUID
    var amount: Int64
    var currency: String
    /// Typed on Plaza's form (`plazaForm` processors only).
    var card: CardDetails?
    /// The customer's address, to fill in on the hosted page.
    var email: String?
    /// Where the hosted page sends the customer after paying, and after giving up.
    var successURL: String
    var cancelURL: String
}

struct StartedPayment: Sendable {
    /// The processor's id of the payment (a Checkout Session for Stripe).
    var id: String
    /// The hosted page where the customer pays.
    var checkoutURL: String?
}

struct PayoutResult: Sendable {
    var id: String
    /// Settled at once (a Stripe transfer): no webhook follows.
    var paid: Bool
}

/// What a processor's webhook means for Plaza, whatever the processor calls it.
enum GatewayOutcome: Sendable, Equatable {
    /// Capture it (processors that authorize first).
    case paymentAuthorized(paymentId: String, reference: UUID)
    case paymentCaptured(reference: UUID)
    /// The top-up ends unpaid; `nil`: for the reason of the last failed attempt, else `expired`.
    case paymentFailed(reference: UUID, code: String?)
    /// A card was refused on the hosted page; the customer may still try another one.
    case paymentAttemptFailed(reference: UUID, code: String)
    case payoutPaid(reference: UUID)
    case payoutFailed(reference: UUID, code: String?)
    case payoutAccountUpdated(account: String, ready: Bool)
}

/// The processor refused a call (not a card outcome: those come by webhook). `refusal` is the processor's code when
/// asking again would get the same answer (a 4xx), `nil` when it may work later (network, 5xx, 429).
struct GatewayError: Error, CustomStringConvertible {
    var message: String
    var refusal: String?
    var description: String { message }

    init(message: String, refusal: String? = nil) {
        self.message = message
        self.refusal = refusal
    }
}

/// `<header>: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, Stripe's webhook signature scheme (the sandbox
/// signs the same way under `Plaza-Gateway-Signature`).
struct WebhookSignature: Sendable {
    let header: HTTPField.Name
    let key: SymmetricKey
    /// Older signatures are refused, so a captured webhook cannot be replayed later.
    var tolerance: TimeInterval = 300

    init(header: String, key: SymmetricKey) {
        self.header = HTTPField.Name(header)!
        self.key = key
    }

    func sign(_ body: Data, at time: Date) -> String {
        let timestamp = Int(time.timeIntervalSince1970)
        return "t=\(timestamp),v1=\(mac(body, timestamp: timestamp))"
    }

    /// Throws 401 unless `headers` carry a current signature of `body`.
    func verify(_ body: Data, headers: HTTPFields, now: Date) throws {
        guard let value = headers[header], isValid(value, body: body, now: now) else {
            throw PlazaError.badWebhookSignature
        }
    }

    func isValid(_ header: String, body: Data, now: Date = Date()) -> Bool {
        var timestamp: Int?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int(pair[1]) } else if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let timestamp, abs(now.timeIntervalSince1970 - Double(timestamp)) <= tolerance else { return false }
        let expected = mac(body, timestamp: timestamp)
        return signatures.contains { Secrets.constantTimeEquals($0, expected) }
    }

    private func mac(_ body: Data, timestamp: Int) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).".utf8) + body, using: key).hexString
    }
}

extension PlazaError {
    static let badWebhookSignature = PlazaError(
        .unauthorized,
        .unauthorized,
        "The webhook signature is missing, wrong or too old."
    )
}
