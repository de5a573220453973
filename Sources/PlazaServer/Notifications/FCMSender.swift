import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlazaCore
import Synchronization
import _CryptoExtras

/// Firebase Cloud Messaging's HTTP v1 API for Android apps: a message per registration token, posted with an OAuth2
/// bearer token that the service account's key earns (an RS256 assertion exchanged at its `token_uri`), kept and
/// renewed five minutes before it expires, or at once when FCM answers 401.
package final class FCMSender: PushSender {
    let settings: FCMSettings
    private let cache = Mutex<Cached?>(nil)

    struct AccessToken: Sendable {
        var value: String
        /// When a send stops using it and fetches the next.
        var renewAt: Date
    }

    private enum Cached {
        case ready(AccessToken)
        case fetching(Task<AccessToken, any Error>)
    }

    package init(settings: FCMSettings) {
        self.settings = settings
    }

    package func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome {
        do {
            var bearer = try await bearer()
            var answer = try await post(message, to: device.address, bearer: bearer)
            if answer.status == 401 {
                // Revoked or expired early: one new token, one more try; a second 401 waits for the next round.
                bearer = try await self.bearer(refusing: bearer)
                answer = try await post(message, to: device.address, bearer: bearer)
            }
            return Self.outcome(status: answer.status, body: answer.body, retryAfter: answer.retryAfter)
        } catch {
            return .retry(seconds: nil, reason: "\(error)")
        }
    }

    private func post(
        _ message: PushMessage,
        to token: String,
        bearer: String
    ) async throws -> (status: Int, body: String, retryAfter: String?) {
        var request = HTTPClientRequest(url: "\(settings.apiURL)/v1/projects/\(settings.projectID)/messages:send")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        request.body = .bytes(ByteBuffer(bytes: try Self.body(message, token: token)))
        let response = try await HTTPClient.shared.traced(request, timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 64 * 1024))
        return (Int(response.status.code), body, response.headers.first(name: "Retry-After"))
    }

    /// The `messages:send` body: what Android shows (`notification`), Plaza's payload for the app (`data`, strings
    /// only, as FCM requires), and how long and how eagerly FCM tries (`android`).
    static func body(_ message: PushMessage, token: String) throws -> Data {
        let payload = message.payload
        let body: [String: Any] = [
            "message": [
                "token": token,
                "notification": ["title": payload.title, "body": payload.body],
                "data": [
                    "id": payload.id.uuidString.lowercased(),
                    "kind": payload.kind.rawValue,
                    "link": payload.link,
                    "sentAt": ISO8601DateFormatter().string(from: payload.sentAt),
                ],
                "android": [
                    "priority": message.urgency == .high ? "HIGH" : "NORMAL",
                    "ttl": "\(message.ttl)s",
                    "collapse_key": message.topic,
                ],
            ]
        ]
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// FCM's answers: 2xx taken; 404 (`UNREGISTERED`) and a 400 `INVALID_ARGUMENT` about the token gone, as is a
    /// token of another project (403 `SENDER_ID_MISMATCH`); 429 and 5xx later (after `Retry-After` when given); 401
    /// later (the token was already renewed once); the rest refused.
    static func outcome(status: Int, body: String, retryAfter: String?) -> PushOutcome {
        let error = (try? JSONDecoder().decode(ErrorBody.self, from: Data(body.utf8)))?.error
        let codes = Set((error?.details ?? []).compactMap(\.errorCode))
        let fields = (error?.details ?? []).flatMap { $0.fieldViolations ?? [] }.compactMap(\.field)
        let reason = "\(status) \(error?.status ?? "") \(error?.message ?? String(body.prefix(200)))"
        let later = retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        switch status {
        case 200..<300: return .delivered
        case 404: return .gone
        case 400:
            let aboutToken =
                fields.contains("message.token")
                || (error?.message ?? "").localizedCaseInsensitiveContains("registration token")
            return aboutToken || codes.contains("UNREGISTERED") ? .gone : .rejected(reason)
        case 403 where codes.contains("SENDER_ID_MISMATCH"): return .gone
        case 401, 429, 500...: return .retry(seconds: later, reason: reason)
        default: return .rejected(reason)
        }
    }

    /// Google's error body (`google.rpc.Status`), as far as it is read.
    struct ErrorBody: Decodable {
        struct Status: Decodable {
            struct Detail: Decodable {
                struct Violation: Decodable { var field: String? }
                var errorCode: String?
                var fieldViolations: [Violation]?
            }
            var status: String?
            var message: String?
            var details: [Detail]?
        }
        var error: Status
    }

    // MARK: The bearer token

    /// The current bearer token, or a new one when it is due for renewal or is `stale` (FCM refused it). Sends that
    /// need one at the same time wait for the same exchange.
    func bearer(refusing stale: String? = nil, now: Date = Date()) async throws -> String {
        enum Step {
            case use(String)
            case wait(Task<AccessToken, any Error>)
        }
        let step = cache.withLock { cached -> Step in
            if case .ready(let token) = cached, now < token.renewAt, token.value != stale { return .use(token.value) }
            if case .fetching(let task) = cached { return .wait(task) }
            let task = Task { [settings] in try await Self.exchange(settings, now: now) }
            cached = .fetching(task)
            return .wait(task)
        }
        switch step {
        case .use(let value):
            return value
        case .wait(let task):
            do {
                let token = try await task.value
                cache.withLock { if case .fetching(let current) = $0, current == task { $0 = .ready(token) } }
                return token.value
            } catch {
                // The next send asks again.
                cache.withLock { if case .fetching(let current) = $0, current == task { $0 = nil } }
                throw error
            }
        }
    }

    /// The signed assertion (RFC 7523): the service account asks for the messaging scope, for an hour.
    static func assertion(_ settings: FCMSettings, now: Date) throws -> String {
        let issued = Int(now.timeIntervalSince1970)
        let header = ["alg": "RS256", "typ": "JWT"]
        let claims: [String: Any] = [
            "iss": settings.clientEmail,
            "scope": FCMSettings.scope,
            "aud": settings.tokenURI,
            "iat": issued,
            "exp": issued + 3_600,
        ]
        let encode = { (object: Any) throws -> String in
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                .base64URLEncodedString()
        }
        let input = "\(try encode(header)).\(try encode(claims))"
        let signature = try settings.privateKey.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return "\(input).\(signature.rawRepresentation.base64URLEncodedString())"
    }

    /// Posts the assertion to `token_uri` and reads the bearer token and its lifetime.
    static func exchange(_ settings: FCMSettings, now: Date) async throws -> AccessToken {
        let form = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
            ("assertion", try assertion(settings, now: now)),
        ]
        .map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .formValue) ?? "")" }.joined(separator: "&")
        var request = HTTPClientRequest(url: settings.tokenURI)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await HTTPClient.shared.traced(request, timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 64 * 1024))
        struct Answer: Decodable {
            var accessToken: String
            var expiresIn: Int?
            enum CodingKeys: String, CodingKey {
                case accessToken = "access_token"
                case expiresIn = "expires_in"
            }
        }
        guard response.status == .ok, let answer = try? JSONDecoder().decode(Answer.self, from: Data(body.utf8)) else {
            throw TokenRefused(status: Int(response.status.code), body: String(body.prefix(200)))
        }
        let lifetime = TimeInterval(answer.expiresIn ?? 3_600)
        // Five minutes early, so no send carries a token that expires on the way; a short-lived one at half its life.
        let margin = lifetime > 600 ? 300 : lifetime / 2
        return AccessToken(value: answer.accessToken, renewAt: Date().addingTimeInterval(lifetime - margin))
    }

    /// The token endpoint said no (a revoked key, a clock far off): the send is tried again later.
    struct TokenRefused: Error, CustomStringConvertible {
        var status: Int
        var body: String
        var description: String { "FCM token exchange: \(status) \(body)" }
    }
}

extension CharacterSet {
    /// What a form value may carry unescaped (`application/x-www-form-urlencoded`).
    static let formValue = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
}
