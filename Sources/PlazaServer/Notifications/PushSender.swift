import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlazaCore

/// What a push service answered for one message.
package enum PushOutcome: Sendable, Equatable {
    /// Taken: the service delivers it (or holds it until the device is online, within the TTL).
    case delivered
    /// The subscription or token is no longer valid (404, 410; APNs `Unregistered`): the device goes.
    case gone
    /// Try again later: after `seconds` when the service said so (429 `Retry-After`), else with back-off.
    case retry(seconds: Int?, reason: String)
    /// Refused for good (too large, malformed): not tried again.
    case rejected(String)
}

/// RFC 8030's `Urgency`: how eagerly a phone should wake for it.
enum PushUrgency: String, Sendable {
    case low, normal, high
}

/// One push message for one device.
package struct PushMessage: Sendable {
    var payload: PushPayload
    /// Seconds the push service keeps it for an offline device (RFC 8030 `TTL`).
    var ttl: Int
    var urgency: PushUrgency

    /// RFC 8030 `Topic` (32 base64url characters at most): a resend replaces the copy still waiting at the service.
    var topic: String { payload.id.uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    package init(_ payload: PushPayload) {
        self.payload = payload
        // A request to pay expires in minutes: after that an alert would only mislead.
        ttl = payload.kind == .moneyRequests ? 600 : 86_400
        urgency = payload.kind.urgent ? .high : .normal
    }
}

/// Sends a push message to one device through its push service. Web Push, APNs and FCM each have one.
protocol PushSender: Sendable {
    func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome
}

/// Web Push over HTTP: the message encrypted and signed for (see `WebPush`), posted to the subscription's endpoint
/// through the outbound guard (a known push service, at a checked public address, no redirects).
package struct WebPushSender: PushSender {
    let webPush: WebPush
    let call: OutboundCall

    package init(webPush: WebPush, call: OutboundCall) {
        self.webPush = webPush
        self.call = call
    }

    package func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome {
        guard let url = URL(string: device.address), let p256dh = device.p256dh.flatMap(Data.init(base64URL:)),
            let auth = device.auth.flatMap(Data.init(base64URL:))
        else { return .gone }
        do {
            let body = try WebPush.encrypt(try PlazaJSON.encoder().encode(message.payload), p256dh: p256dh, auth: auth)
            var request = HTTPClientRequest(url: device.address)
            request.method = .POST
            request.headers.add(name: "TTL", value: String(message.ttl))
            request.headers.add(name: "Urgency", value: message.urgency.rawValue)
            request.headers.add(name: "Topic", value: message.topic)
            request.headers.add(name: "Content-Encoding", value: "aes128gcm")
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            request.headers.add(name: "Authorization", value: try webPush.authorization(endpoint: url))
            request.body = .bytes(ByteBuffer(bytes: body))
            // Push services answer in milliseconds; one that does not (or cannot be reached) gets its retry later, on
            // its own: sends do not wait on each other.
            let answer = try await call.execute(request)
            return Self.outcome(
                status: answer.status,
                retryAfter: answer.headers.first(name: "Retry-After"),
                body: answer.body
            )
        } catch OutboundGuard.Refused.notAllowed {
            // Registered before the guard, or the operator's list shrank: it can never be sent to.
            return .gone
        } catch {
            return .retry(seconds: nil, reason: "\(error)")
        }
    }

    /// RFC 8030 §5 and RFC 8292 §4: 2xx taken; 404 and 410 gone; 403 the subscription belongs to another key (it can
    /// never work with ours); 429 and 5xx later; other 4xx refused for good.
    static func outcome(status: Int, retryAfter: String?, body: String) -> PushOutcome {
        switch status {
        case 200..<300: .delivered
        case 403, 404, 410: .gone
        case 429:
            .retry(
                seconds: retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) },
                reason: "429 \(body.prefix(200))"
            )
        case 500...:
            .retry(
                seconds: retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) },
                reason: "\(status) \(body.prefix(200))"
            )
        default: .rejected("\(status) \(body.prefix(200))")
        }
    }
}

/// The sender for each platform; a platform without one (APNs or FCM not configured) refuses.
struct PushSenders: Sendable {
    var webPush: (any PushSender)?
    var apns: (any PushSender)?
    var fcm: (any PushSender)?

    func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome {
        let sender =
            switch device.platform {
            case .webpush: webPush
            case .apns: apns
            case .fcm: fcm
            }
        guard let sender else { return .rejected("No \(device.platform.rawValue) sender is configured.") }
        return await sender.send(message, to: device)
    }
}
