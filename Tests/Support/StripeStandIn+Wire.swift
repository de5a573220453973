import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

/// Webhooks as Stripe signs and sends them, and Stripe's JSON for the objects the stand-in keeps.
extension StripeStandIn {
    // MARK: Webhooks

    /// Posts an event the way Stripe does: JSON, `Stripe-Signature: t=...,v1=...` over "t.body" with the endpoint's
    /// secret; delivered before the page answers, so tests need not wait (Stripe's own order is not guaranteed).
    func send(_ type: String, object: [String: Any], account: String? = nil) async throws {
        guard let url = state.withLock({ $0.webhookURL }) else { return }
        var event: [String: Any] = [
            "id": Self.id("evt"), "object": "event", "type": type, "created": Int(Date().timeIntervalSince1970),
            "livemode": false,
            "api_version": "2024-06-20", "data": ["object": object],
        ]
        if let account { event["account"] = account }
        let body = try JSONSerialization.data(withJSONObject: event)
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        request.headers.add(name: "Stripe-Signature", value: Self.signature(body, at: Date()))
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        state.withLock { $0.deliveries.append(Delivery(type: type, status: Int(response.status.code))) }
    }

    /// `t=<seconds>,v1=<hex HMAC-SHA256 of "t.body" keyed with the whole whsec_ secret>`.
    public static func signature(_ body: Data, at time: Date, secret: String = webhookSecret) -> String {
        let timestamp = Int(time.timeIntervalSince1970)
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(timestamp).".utf8) + body,
            using: SymmetricKey(data: Data(secret.utf8))
        )
        return "t=\(timestamp),v1=\(mac.map { String(format: "%02x", $0) }.joined())"
    }

    // MARK: Encoding

    func json(_ session: Session) -> [String: Any] {
        var object: [String: Any] = [
            "id": session.id, "object": "checkout.session", "mode": "payment", "status": session.status,
            "payment_status": session.paymentStatus,
            "amount_total": session.amount, "currency": session.currency, "client_reference_id": session.reference,
            "metadata": ["plaza_top_up": session.reference], "expires_at": session.expiresAt,
            "success_url": session.successURL,
            "cancel_url": session.cancelURL, "payment_intent": session.paymentIntent ?? NSNull(),
        ]
        object["url"] = session.status == "open" ? "\(baseURL)/pay/\(session.id)" : NSNull()
        return object
    }

    func json(_ account: Account) -> [String: Any] {
        [
            "id": account.id, "object": "account", "type": "express", "email": account.email,
            "metadata": account.metadata,
            "payouts_enabled": account.ready, "charges_enabled": false, "details_submitted": account.ready,
            "capabilities": ["transfers": account.ready ? "active" : "inactive"],
        ]
    }

    static func answer(_ object: [String: Any], status: Int = 200) throws -> Reply {
        Reply(status: status, body: try JSONSerialization.data(withJSONObject: object))
    }

    static func error(_ status: Int, type: String, code: String?, _ message: String) -> Reply {
        var detail: [String: Any] = ["type": type, "message": message]
        if let code { detail["code"] = code }
        return (try? answer(["error": detail], status: status)) ?? Reply(status: 500, body: Data())
    }

    static func missing(_ id: String) -> Reply {
        error(404, type: "invalid_request_error", code: "resource_missing", "No such object: '\(id)'")
    }

    static func page(_ html: String, status: Int = 200) -> Response {
        Response(
            status: .init(code: status),
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: "<!doctype html><title>Stripe stand-in</title>\(html)"))
        )
    }

    static func id(_ prefix: String) -> String {
        "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(24))"
    }

    static func metadata(_ form: [String: String], _ prefix: String) -> [String: String] {
        var metadata: [String: String] = [:]
        for (key, value) in form where key.hasPrefix(prefix + "[") && key.hasSuffix("]") {
            metadata[String(key.dropFirst(prefix.count + 1).dropLast())] = value
        }
        return metadata
    }

    static func parseForm(_ text: String) -> [String: String] {
        var form: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            form[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return form
    }
}
