import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore

/// Stripe, over its HTTP API (form-encoded requests, JSON answers, `Idempotency-Key` on every POST).
///
/// - Top-ups use hosted Checkout Sessions: the customer types the card on Stripe's page, never on Plaza's, and
///   comes back to Plaza's return URL; `checkout.session.completed` (paid), `...async_payment_succeeded` and
///   `...async_payment_failed`, `checkout.session.expired` and `payment_intent.payment_failed` settle them.
/// - Withdrawals are Connect transfers to the user's Express account, whose own payouts reach their bank; the user
///   connects it once on Stripe's onboarding page (`account.updated` says when payouts are enabled).
/// - Webhooks are checked by the `Stripe-Signature` scheme with the endpoint's signing secret (`whsec_...`).
final class StripeGateway: PaymentGateway {
    typealias Settings = StripeSettings

    /// The API version Plaza is written against; Stripe answers in it whatever the account's default.
    static let apiVersion = "2024-06-20"
    /// How long a Checkout page stays open (Stripe's minimum is 30 minutes).
    static let checkoutLifetime: TimeInterval = 31 * 60

    let settings: Settings
    let signature: WebhookSignature
    let logger: Logger
    var isTestMode: Bool { settings.secretKey.hasPrefix("sk_test_") || settings.secretKey.hasPrefix("rk_test_") }
    var cardEntry: CardEntry { .hostedPage }
    var webhookName: String { "stripe" }
    var needsPayoutAccount: Bool { true }
    /// Checkout and Connect onboarding; with another API address (a stand-in, an egress proxy), its origin too.
    var pageOrigins: [String] {
        var origins = ["https://checkout.stripe.com", "https://connect.stripe.com"]
        if settings.apiURL != "https://api.stripe.com", let url = URL(string: settings.apiURL), let scheme = url.scheme,
            let host = url.host
        {
            origins.append("\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")")
        }
        return origins
    }

    init(_ settings: Settings, logger: Logger) {
        self.settings = settings
        signature = WebhookSignature(
            header: "Stripe-Signature",
            key: SymmetricKey(data: Data(settings.webhookSecret.utf8))
        )
        self.logger = logger
    }

    // MARK: Top-ups

    func startPayment(_ payment: PaymentStart, idempotencyKey: String) async throws -> StartedPayment {
        let reference = payment.reference.uuidString.lowercased()
        var form: [(String, String)] = [
            ("mode", "payment"),
            ("line_items[0][quantity]", "1"),
            ("line_items[0][price_data][currency]", payment.currency.lowercased()),
            ("line_items[0][price_data][unit_amount]", "\(payment.amount)"),
            ("line_items[0][price_data][product_data][name]", "Plaza wallet top-up"),
            ("success_url", payment.successURL),
            ("cancel_url", payment.cancelURL),
            ("client_reference_id", reference),
            ("metadata[plaza_top_up]", reference),
            // So that `payment_intent.payment_failed` names the top-up too.
            ("payment_intent_data[metadata][plaza_top_up]", reference),
            ("expires_at", "\(Int(Date().timeIntervalSince1970 + Self.checkoutLifetime))"),
        ]
        if let email = payment.email { form.append(("customer_email", email)) }
        let session: StripeObject = try await call(.POST, "/v1/checkout/sessions", form, idempotencyKey: idempotencyKey)
        guard let url = session.url else {
            throw GatewayError(message: "Stripe answered a Checkout Session without a url")
        }
        return StartedPayment(id: session.id, checkoutURL: url)
    }

    /// Checkout captures by itself; this is for a PaymentIntent created with manual capture.
    func capture(paymentId: String, idempotencyKey: String) async throws {
        let _: StripeObject = try await call(
            .POST,
            "/v1/payment_intents/\(Self.pathSegment(paymentId))/capture",
            [],
            idempotencyKey: idempotencyKey
        )
    }

    func cancelPayment(id: String) async throws -> Bool {
        do {
            let _: StripeObject = try await call(
                .POST,
                "/v1/checkout/sessions/\(Self.pathSegment(id))/expire",
                [],
                idempotencyKey: "expire-\(id)"
            )
            return true
        } catch let error as GatewayError where error.refusal != nil {
            // Only open sessions expire: this one was completed (or expired) already, and its webhook says how.
            let session: StripeObject = try await call(
                .GET,
                "/v1/checkout/sessions/\(Self.pathSegment(id))",
                [],
                idempotencyKey: nil
            )
            return session.status != "complete"
        }
    }

    func outcome(ofPayment id: String, reference: UUID) async throws -> GatewayOutcome? {
        let session: StripeObject = try await call(
            .GET,
            "/v1/checkout/sessions/\(Self.pathSegment(id))",
            [],
            idempotencyKey: nil
        )
        switch (session.status, session.paymentStatus) {
        case ("complete", "paid"): return .paymentCaptured(reference: reference)
        case ("expired", _): return .paymentFailed(reference: reference, code: nil)
        default: return nil
        }
    }

    // MARK: Withdrawals

    func payout(
        amount: Int64,
        currency: String,
        reference: UUID,
        destination: String?,
        idempotencyKey: String
    ) async throws -> PayoutResult {
        guard let destination else {
            throw GatewayError(message: "no payout account", refusal: "payout_account_missing")
        }
        let id = reference.uuidString.lowercased()
        let transfer: StripeObject = try await call(
            .POST,
            "/v1/transfers",
            [
                ("amount", "\(amount)"), ("currency", currency.lowercased()), ("destination", destination),
                ("transfer_group", "withdrawal-\(id)"),
                ("description", "Plaza wallet withdrawal"), ("metadata[plaza_withdrawal]", id),
            ],
            idempotencyKey: idempotencyKey
        )
        return PayoutResult(id: transfer.id, paid: true)
    }

    func createPayoutAccount(user: UUID, email: String, idempotencyKey: String) async throws -> String {
        let account: StripeObject = try await call(
            .POST,
            "/v1/accounts",
            [
                ("type", "express"), ("email", email), ("capabilities[transfers][requested]", "true"),
                ("metadata[plaza_user]", user.uuidString.lowercased()),
            ],
            idempotencyKey: idempotencyKey
        )
        return account.id
    }

    func payoutAccountLink(account: String, returnURL: String, refreshURL: String) async throws -> String {
        let link: StripeObject = try await call(
            .POST,
            "/v1/account_links",
            [
                ("account", account), ("type", "account_onboarding"), ("return_url", returnURL),
                ("refresh_url", refreshURL),
            ],
            idempotencyKey: UUID().uuidString
        )
        guard let url = link.url else { throw GatewayError(message: "Stripe answered an account link without a url") }
        return url
    }

    func payoutAccountReady(account: String) async throws -> Bool {
        let object: StripeObject = try await call(
            .GET,
            "/v1/accounts/\(Self.pathSegment(account))",
            [],
            idempotencyKey: nil
        )
        return object.isReadyForPayouts
    }

    // MARK: Webhooks

    func outcomes(ofWebhook body: Data, headers: HTTPFields, now: Date) throws -> [GatewayOutcome] {
        try signature.verify(body, headers: headers, now: now)
        let event: StripeEvent
        do { event = try Self.decoder.decode(StripeEvent.self, from: body) } catch {
            throw PlazaError.malformed("Not a Stripe event.")
        }
        let object = event.data.object
        let topUp = (object.clientReferenceId ?? object.metadata?["plaza_top_up"]).flatMap(UUID.init(uuidString:))
        switch (event.type, topUp) {
        case ("checkout.session.completed", let reference?) where object.paymentStatus == "paid":
            return [.paymentCaptured(reference: reference)]
        case ("checkout.session.async_payment_succeeded", let reference?):
            return [.paymentCaptured(reference: reference)]
        case ("checkout.session.async_payment_failed", let reference?):
            return [.paymentFailed(reference: reference, code: "payment_failed")]
        case ("checkout.session.expired", let reference?):
            return [.paymentFailed(reference: reference, code: nil)]
        case ("payment_intent.payment_failed", let reference?):
            let error = object.lastPaymentError
            return [
                .paymentAttemptFailed(reference: reference, code: error?.declineCode ?? error?.code ?? "card_declined")
            ]
        case ("account.updated", _):
            return [.payoutAccountUpdated(account: object.id, ready: object.isReadyForPayouts)]
        default:
            // `checkout.session.completed` while a bank debit is still on its way, transfers (settled when made), others.
            return []
        }
    }

    // MARK: HTTP

    /// One API call, retried (with the same idempotency key) while Stripe says it may work later.
    private func call<T: Decodable>(
        _ method: HTTPMethod,
        _ path: String,
        _ form: [(String, String)],
        idempotencyKey: String?
    ) async throws -> T {
        var request = HTTPClientRequest(url: settings.apiURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(settings.secretKey)")
        request.headers.add(name: "Stripe-Version", value: Self.apiVersion)
        request.headers.add(name: "User-Agent", value: "Plaza")
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        if method == .POST {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: FormData.encoded(form)))
        }
        var delay = Duration.milliseconds(500)
        for attempt in 1...3 {
            let response: HTTPClientResponse
            let body: ByteBuffer
            do {
                response = try await HTTPClient.shared.traced(request, timeout: .seconds(30))
                body = try await response.body.collect(upTo: 1 << 20)
            } catch {
                logger.warning(
                    "Stripe not reached",
                    metadata: ["path": "\(path)", "error": "\(error)", "attempt": "\(attempt)"]
                )
                if attempt == 3 { throw GatewayError(message: "Stripe not reached: \(error)") }
                try await Task.sleep(for: delay)
                delay *= 2
                continue
            }
            let data = Data(body.readableBytesView)
            if (200..<300).contains(response.status.code) {
                do { return try Self.decoder.decode(T.self, from: data) } catch {
                    throw GatewayError(message: "unreadable answer from Stripe: \(error)")
                }
            }
            let failure = (try? Self.decoder.decode(StripeErrorBody.self, from: data))?.error
            let message = "Stripe answered \(response.status.code) to \(path): \(failure?.message ?? "no message")"
            // 409: the same key is in flight; 429: slow down; 5xx: Stripe's side. Stripe-Should-Retry overrides.
            let shouldRetry = response.headers.first(name: "Stripe-Should-Retry").map { $0 == "true" }
            let transient =
                shouldRetry
                ?? (response.status.code == 409 || response.status.code == 429 || response.status.code >= 500)
            if !transient {
                throw GatewayError(
                    message: message,
                    refusal: failure?.declineCode ?? failure?.code ?? failure?.type ?? "refused"
                )
            }
            logger.warning(
                "Stripe busy",
                metadata: ["path": "\(path)", "status": "\(response.status.code)", "attempt": "\(attempt)"]
            )
            if attempt == 3 { throw GatewayError(message: message) }
            try await Task.sleep(for: delay)
            delay *= 2
        }
        throw GatewayError(message: "Stripe not reached")
    }

    /// Stripe's keys are snake_case; the types below name them (a key strategy would also rename metadata keys).
    static let decoder = JSONDecoder()

    /// An id as one path segment (ids are `[A-Za-z0-9_]`, but nothing from outside reaches a path unescaped).
    static func pathSegment(_ id: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127))
        )
        allowed.insert(charactersIn: "-._~")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// The fields Plaza reads from any Stripe object (session, payment intent, transfer, account, account link).
struct StripeObject: Decodable, Sendable {
    var id: String = ""
    var url: String?
    var status: String?
    var paymentStatus: String?
    var clientReferenceId: String?
    var metadata: [String: String]?
    var lastPaymentError: StripeErrorBody.Detail?
    var payoutsEnabled: Bool?
    var capabilities: [String: String]?

    /// Transfers can reach it and it can pay out to a bank.
    var isReadyForPayouts: Bool {
        payoutsEnabled == true && (capabilities?["transfers"].map { $0 == "active" } ?? true)
    }

    enum CodingKeys: String, CodingKey {
        case id, url, status, metadata, capabilities
        case paymentStatus = "payment_status"
        case clientReferenceId = "client_reference_id"
        case lastPaymentError = "last_payment_error"
        case payoutsEnabled = "payouts_enabled"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        url = try container.decodeIfPresent(String.self, forKey: .url)
        status = try container.decodeIfPresent(String.self, forKey: .status)
        paymentStatus = try container.decodeIfPresent(String.self, forKey: .paymentStatus)
        clientReferenceId = try container.decodeIfPresent(String.self, forKey: .clientReferenceId)
        metadata = try? container.decodeIfPresent([String: String].self, forKey: .metadata)
        lastPaymentError = try? container.decodeIfPresent(StripeErrorBody.Detail.self, forKey: .lastPaymentError)
        payoutsEnabled = try container.decodeIfPresent(Bool.self, forKey: .payoutsEnabled)
        capabilities = try? container.decodeIfPresent([String: String].self, forKey: .capabilities)
    }
}

struct StripeEvent: Decodable, Sendable {
    struct Payload: Decodable, Sendable {
        var object: StripeObject
    }

    var id: String
    var type: String
    var data: Payload
}

struct StripeErrorBody: Decodable, Sendable {
    struct Detail: Decodable, Sendable {
        var type: String?
        var code: String?
        var declineCode: String?
        var message: String?

        enum CodingKeys: String, CodingKey {
            case type, code, message
            case declineCode = "decline_code"
        }
    }

    var error: Detail
}
