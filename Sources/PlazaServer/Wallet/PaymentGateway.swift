import Crypto
import Foundation
import PlazaCore

/// A card processor, shaped like the real ones: every call is idempotent by key and answers at once with the
/// processor's id; how it ends arrives later as a signed webhook (`GatewayEvent`) at `POST /v1/webhooks/gateway`.
/// A real processor is one more type behind this protocol; `SandboxGateway` is the built-in one.
protocol PaymentGateway: Sendable {
    /// Test cards and no real money: every page that takes a card says so.
    var isTestMode: Bool { get }
    /// Authorizes `amount` on `card`: `payment.authorized` or `payment.failed` follows.
    func authorize(amount: Int64, currency: String, card: CardDetails, reference: UUID, idempotencyKey: String) async throws -> String
    /// Captures an authorized payment: `payment.captured` follows.
    func capture(paymentId: String, idempotencyKey: String) async throws
    /// Refunds part or all of a captured payment: `refund.succeeded` follows.
    func refund(paymentId: String, amount: Int64, idempotencyKey: String) async throws -> String
    /// Pays money out to the user's bank account on file: `payout.paid` or `payout.failed` follows.
    func payout(amount: Int64, currency: String, reference: UUID, idempotencyKey: String) async throws -> String
    /// Where webhooks go, once the server listens.
    func deliverWebhooks(to url: String)
}

/// A webhook from the processor.
struct GatewayEvent: Codable, Sendable {
    var id: String
    /// `payment.authorized`, `payment.captured`, `payment.failed`, `refund.succeeded`, `payout.paid`, `payout.failed`.
    var type: String
    /// Unix seconds.
    var created: Int
    var data: Object

    struct Object: Codable, Sendable {
        /// The processor's id of the payment, refund or payout.
        var id: String
        /// Our top-up or withdrawal id.
        var reference: UUID
        var amount: Int64
        var currency: String
        var failureCode: String?
    }
}

/// `Plaza-Gateway-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as Stripe signs its webhooks.
struct WebhookSignature: Sendable {
    static let header = "Plaza-Gateway-Signature"
    let key: SymmetricKey
    /// Older signatures are refused, so a captured webhook cannot be replayed later.
    var tolerance: TimeInterval = 300

    init(secretKey: String) {
        key = SymmetricKey(data: SHA256.hash(data: Data("plaza:gateway-webhook:\(secretKey)".utf8)))
    }

    func sign(_ body: Data, at time: Date) -> String {
        let timestamp = Int(time.timeIntervalSince1970)
        return "t=\(timestamp),v1=\(mac(body, timestamp: timestamp))"
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
