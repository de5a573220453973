import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import PlazaCore
import Synchronization

/// The built-in card processor for demos and tests. Test cards decide the outcome, as with real processors:
/// 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds.
/// Outcomes arrive as signed webhooks over real HTTP at Plaza's own `POST /v1/webhooks/gateway`, retried until
/// Plaza answers 2xx. Nothing is kept across restarts (a real processor keeps it; the sandbox is for trying out).
final class SandboxGateway: PaymentGateway {
    static let declinedCard = "4000000000000002"
    static let insufficientFundsCard = "4000000000009995"
    var isTestMode: Bool { true }
    var cardEntry: CardEntry { .plazaForm }
    var webhookName: String { "gateway" }

    private struct State {
        var webhookURL: String?
        /// Events waiting for the server to listen.
        var queued: [GatewayEvent] = []
        /// Idempotency key → the id answered the first time.
        var keys: [String: String] = [:]
        /// Payment id → (reference, amount, currency, authorized).
        var payments: [String: (reference: UUID, amount: Int64, currency: String, authorized: Bool)] = [:]
    }

    private let state = Mutex(State())
    private let signature: WebhookSignature
    private let logger: Logger
    /// How long the sandbox "thinks" before answering, like a processor's round trip.
    let latency: Duration = .milliseconds(20)

    init(secretKey: String, logger: Logger) {
        signature = Self.signature(secretKey: secretKey)
        self.logger = logger
    }

    /// `Plaza-Gateway-Signature`, keyed with a key derived from the server's secret key.
    static func signature(secretKey: String) -> WebhookSignature {
        WebhookSignature(
            header: "Plaza-Gateway-Signature",
            key: SymmetricKey(data: SHA256.hash(data: Data("plaza:gateway-webhook:\(secretKey)".utf8)))
        )
    }

    func outcomes(ofWebhook body: Data, headers: HTTPFields, now: Date) throws -> [GatewayOutcome] {
        try signature.verify(body, headers: headers, now: now)
        let event: GatewayEvent
        do { event = try PlazaJSON.decoder().decode(GatewayEvent.self, from: body) } catch {
            throw PlazaError.malformed("Not a gateway event.")
        }
        let (id, reference) = (event.data.id, event.data.reference)
        switch event.type {
        case "payment.authorized": return [.paymentAuthorized(paymentId: id, reference: reference)]
        case "payment.captured": return [.paymentCaptured(reference: reference)]
        case "payment.failed":
            return [.paymentFailed(reference: reference, code: event.data.failureCode ?? "card_declined")]
        case "payout.paid": return [.payoutPaid(reference: reference)]
        case "payout.failed": return [.payoutFailed(reference: reference, code: event.data.failureCode)]
        default: return []
        }
    }

    func deliverWebhooks(to url: String) {
        let queued = state.withLock { state in
            state.webhookURL = url
            defer { state.queued = [] }
            return state.queued
        }
        for event in queued { send(event, to: url) }
    }

    func startPayment(_ payment: PaymentStart, idempotencyKey: String) async throws -> StartedPayment {
        guard let card = payment.card else {
            throw GatewayError(message: "the sandbox takes the card on Plaza's form", refusal: "card_missing")
        }
        let (amount, currency, reference) = (payment.amount, payment.currency, payment.reference)
        let digits = card.number.filter(\.isNumber)
        let failure: String? =
            switch digits {
            case Self.declinedCard: "card_declined"
            case Self.insufficientFundsCard: "insufficient_funds"
            default: nil
            }
        let (id, isNew) = once(idempotencyKey, prefix: "pay") { state, id in
            state.payments[id] = (reference, amount, currency, failure == nil)
        }
        if isNew {
            emit(
                failure == nil ? "payment.authorized" : "payment.failed",
                object: id,
                reference: reference,
                amount: amount,
                currency: currency,
                failure: failure
            )
        }
        return StartedPayment(id: id)
    }

    /// Nothing to end: the sandbox settles every payment at once.
    func cancelPayment(id: String) async throws -> Bool { false }

    func capture(paymentId: String, idempotencyKey: String) async throws {
        guard let payment = state.withLock({ $0.payments[paymentId] }), payment.authorized else {
            throw GatewayError(message: "no authorized payment \(paymentId)")
        }
        let (_, isNew) = once(idempotencyKey, prefix: "cap") { _, _ in }
        if isNew {
            emit(
                "payment.captured",
                object: paymentId,
                reference: payment.reference,
                amount: payment.amount,
                currency: payment.currency,
                failure: nil
            )
        }
    }

    /// Pays out to "the bank account on file": the sandbox has one for everyone.
    func payout(
        amount: Int64,
        currency: String,
        reference: UUID,
        destination: String?,
        idempotencyKey: String
    ) async throws -> PayoutResult {
        let (id, isNew) = once(idempotencyKey, prefix: "po") { _, _ in }
        if isNew {
            emit("payout.paid", object: id, reference: reference, amount: amount, currency: currency, failure: nil)
        }
        return PayoutResult(id: id, paid: false)
    }

    /// The id this key got the first time, or a new one (`isNew`), with `update` applied for a new one.
    private func once(_ key: String, prefix: String, _ update: (inout State, String) -> Void) -> (String, isNew: Bool) {
        state.withLock { state in
            if let id = state.keys[key] { return (id, false) }
            let id = "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(20).lowercased())"
            state.keys[key] = id
            update(&state, id)
            return (id, true)
        }
    }

    private func emit(
        _ type: String,
        object: String,
        reference: UUID,
        amount: Int64,
        currency: String,
        failure: String?
    ) {
        let event = GatewayEvent(
            id: "evt_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())",
            type: type,
            created: Int(Date().timeIntervalSince1970),
            data: .init(id: object, reference: reference, amount: amount, currency: currency, failureCode: failure)
        )
        let url = state.withLock { state -> String? in
            if state.webhookURL == nil { state.queued.append(event) }
            return state.webhookURL
        }
        if let url { send(event, to: url) }
    }

    /// Posts `event` until Plaza answers 2xx, backing off from 0.1 s to 5 s, for about two minutes.
    private func send(_ event: GatewayEvent, to url: String) {
        let (signature, logger, latency) = (signature, logger, latency)
        Task {
            try? await Task.sleep(for: latency)
            guard let body = try? PlazaJSON.encoder().encode(event) else { return }
            var delay = Duration.milliseconds(100)
            for attempt in 1...30 {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: signature.header.rawName, value: signature.sign(body, at: Date()))
                request.body = .bytes(ByteBuffer(bytes: body))
                do {
                    let response = try await HTTPClient.shared.traced(request, timeout: .seconds(10))
                    if (200..<300).contains(response.status.code) { return }
                    logger.warning(
                        "webhook refused",
                        metadata: [
                            "event": "\(event.type)", "status": "\(response.status.code)", "attempt": "\(attempt)",
                        ]
                    )
                } catch {
                    logger.debug(
                        "webhook not delivered",
                        metadata: ["event": "\(event.type)", "error": "\(error)", "attempt": "\(attempt)"]
                    )
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
            logger.error(
                "webhook given up",
                metadata: ["event": "\(event.type)", "reference": "\(event.data.reference)"]
            )
        }
    }
}

/// The sandbox's webhook (`POST /v1/webhooks/gateway`, the `GatewayEvent` schema of `openapi.yaml`).
struct GatewayEvent: Codable, Sendable {
    var id: String
    /// `payment.authorized`, `payment.captured`, `payment.failed`, `payout.paid`, `payout.failed`.
    var type: String
    /// Unix seconds.
    var created: Int
    var data: Object

    struct Object: Codable, Sendable {
        /// The processor's id of the payment or payout.
        var id: String
        /// Our top-up or withdrawal id.
        var reference: UUID
        var amount: Int64
        var currency: String
        var failureCode: String?
    }
}
