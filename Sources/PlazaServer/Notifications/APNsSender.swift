import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import PlazaCore
import Synchronization

/// Apple Push Notification service over HTTP/2 with token authentication: each request carries an ES256 JWT of the
/// team's key (refreshed every 50 minutes; Apple refuses one older than an hour and asks for no more than one new
/// token every 20 minutes).
package final class APNsSender: PushSender {
    let settings: APNsSettings
    let client: HTTPClient
    private let token = Mutex<(value: String, issued: Date)?>(nil)

    /// `trustRoots`: the certificates the APNs host must chain to (tests pass their own; else the system's).
    package init(settings: APNsSettings, trustRoots: [NIOSSLCertificate]? = nil) {
        self.settings = settings
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustRoots { tls.trustRoots = .certificates(trustRoots) }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        // Never `syncShutdown` here: a deinit may run on one of the client's own event loops.
        let client = client
        Task { try? await client.shutdown() }
    }

    package func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome {
        do {
            var request = HTTPClientRequest(url: "\(settings.host)/3/device/\(device.address)")
            request.method = .POST
            request.headers.add(name: "authorization", value: "bearer \(try bearer())")
            request.headers.add(name: "apns-topic", value: device.topic ?? settings.topic)
            request.headers.add(name: "apns-push-type", value: "alert")
            request.headers.add(name: "apns-priority", value: message.urgency == .high ? "10" : "5")
            request.headers.add(name: "apns-expiration", value: String(Int(Date().timeIntervalSince1970) + message.ttl))
            request.headers.add(name: "apns-id", value: message.payload.id.uuidString)
            request.headers.add(name: "apns-collapse-id", value: message.topic)
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try Self.body(message.payload)))
            let response = try await client.traced(request, timeout: .seconds(30))
            let text = String(buffer: try await response.body.collect(upTo: 64 * 1024))
            let reason = (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)))?["reason"] ?? text
            if response.status.code == 403, reason == "ExpiredProviderToken" || reason == "InvalidProviderToken" {
                token.withLock { $0 = nil }
            }
            return Self.outcome(
                status: Int(response.status.code),
                reason: reason,
                retryAfter: response.headers.first(name: "retry-after")
            )
        } catch {
            return .retry(seconds: nil, reason: "\(error)")
        }
    }

    /// What the app receives: the alert iOS shows, and Plaza's payload for the app (`plaza`).
    static func body(_ payload: PushPayload) throws -> Data {
        struct Body: Encodable {
            struct APS: Encodable {
                struct Alert: Encodable {
                    var title: String
                    var body: String
                }
                var alert: Alert
                var sound = "default"
                var threadID: String
                enum CodingKeys: String, CodingKey {
                    case alert, sound
                    case threadID = "thread-id"
                }
            }
            var aps: APS
            var plaza: PushPayload
        }
        return try PlazaJSON.encoder().encode(
            Body(
                aps: .init(alert: .init(title: payload.title, body: payload.body), threadID: payload.kind.rawValue),
                plaza: payload
            )
        )
    }

    /// Apple's answers: 200 taken; 410 (and a token that is not, or not for this app) gone; 429 and 5xx later; an
    /// expired or refused provider token later with a new one; the rest refused.
    static func outcome(status: Int, reason: String, retryAfter: String?) -> PushOutcome {
        switch (status, reason) {
        case (200, _): .delivered
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): .gone
        case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"): .retry(seconds: nil, reason: reason)
        case (429, _), (500..., _): .retry(seconds: retryAfter.flatMap { Int($0) }, reason: "\(status) \(reason)")
        default: .rejected("\(status) \(reason)")
        }
    }

    /// The provider token, made anew after 50 minutes.
    private func bearer(now: Date = Date()) throws -> String {
        if let current = token.withLock({ $0 }), now.timeIntervalSince(current.issued) < 50 * 60 {
            return current.value
        }
        let value = try WebPush.jwt(
            claims: ["iss": settings.teamID, "iat": Int(now.timeIntervalSince1970)],
            key: settings.key,
            keyID: settings.keyID
        )
        token.withLock { $0 = (value, now) }
        return value
    }
}

/// What APNs token authentication needs (`PLAZA_APNS_*`).
public struct APNsSettings: Sendable {
    /// The team's signing key (the `.p8` file Apple gives, PEM).
    public var key: P256.Signing.PrivateKey
    public var keyID: String
    public var teamID: String
    /// The app's bundle id: the default `apns-topic`.
    public var topic: String
    /// `https://api.push.apple.com` (production), `https://api.sandbox.push.apple.com`, or a test server.
    public var host: String

    public init(key: P256.Signing.PrivateKey, keyID: String, teamID: String, topic: String, host: String) {
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
        self.host = host
    }

    public static let production = "https://api.push.apple.com"
    public static let sandbox = "https://api.sandbox.push.apple.com"
}
