import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore
import Synchronization

/// A push service on loopback for the tests, playing the browser's side too: each subscription has its own P-256 key
/// pair and auth secret, and every message that arrives is checked as a browser and a push service would: the VAPID
/// JWT's ES256 signature with the key in `k`, its audience and expiry, then the RFC 8291 decryption with the
/// subscription's private key. A message that fails either is refused (400) and counted in `failures`.
public final class WebPushReceiver: Sendable {
    public struct Message: Sendable {
        public var subscription: String
        public var plaintext: Data
        public var ttl: Int?
        public var urgency: String?
        public var topic: String?
        /// The application server's key that signed for it (`k`).
        public var vapidKey: String
        public var subject: String

        public func payload() throws -> PushPayload {
            try PlazaJSON.decoder().decode(PushPayload.self, from: plaintext)
        }
    }

    struct Subscriber: Sendable {
        var key: P256.KeyAgreement.PrivateKey
        var auth: Data
        /// What to answer instead of 201 (410 gone, 429 with a Retry-After), while it lasts.
        var answers: [(status: Int, retryAfter: String?)] = []
    }

    public let port: Int
    private let server: LoopbackServer
    private let state = Mutex<(subscribers: [String: Subscriber], messages: [Message], failures: [String])>(
        ([:], [], [])
    )

    public var messages: [Message] { state.withLock { $0.messages } }
    public var failures: [String] { state.withLock { $0.failures } }
    public var origin: String { "http://127.0.0.1:\(port)" }

    public static func start() async throws -> WebPushReceiver {
        let box = Mutex<WebPushReceiver?>(nil)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            guard let receiver = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            if request.method == .get, let control = try receiver.control(request.uri.path) { return control }
            guard request.method == .post, request.uri.path.hasPrefix("/push/") else {
                return Response(status: .notFound)
            }
            let body = try await request.body.collect(upTo: 1 << 16)
            return receiver.receive(
                id: String(request.uri.path.dropFirst("/push/".count)),
                headers: request.headers,
                body: Data(body.readableBytesView)
            )
        }
        let server = try await LoopbackServer.start(name: "web-push-receiver", responder: responder)
        let receiver = WebPushReceiver(server: server)
        box.withLock { $0 = receiver }
        return receiver
    }

    init(server: LoopbackServer) {
        self.server = server
        port = server.port
    }

    /// A new browser subscription: what `pushManager.subscribe()` would hand the page.
    public func subscribe() -> WebPushSubscription {
        let id = UUID().uuidString.lowercased()
        let subscriber = Subscriber(
            key: P256.KeyAgreement.PrivateKey(),
            auth: Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        )
        state.withLock { $0.subscribers[id] = subscriber }
        return WebPushSubscription(
            endpoint: "\(origin)/push/\(id)",
            keys: .init(
                p256dh: subscriber.key.publicKey.x963Representation.base64URLEncodedString(),
                auth: subscriber.auth.base64URLEncodedString()
            )
        )
    }

    /// The next messages to `subscription` are answered with `status` (and `Retry-After`), once each.
    public func answer(_ subscription: WebPushSubscription, with status: Int, retryAfter: String? = nil, times: Int = 1)
    {
        let id = String(subscription.endpoint.split(separator: "/").last ?? "")
        state.withLock { $0.subscribers[id]?.answers += Array(repeating: (status, retryAfter), count: times) }
    }

    public func messages(to subscription: WebPushSubscription) -> [Message] {
        let id = String(subscription.endpoint.split(separator: "/").last ?? "")
        return messages.filter { $0.subscription == id }
    }

    /// Waits until `count` messages reached `subscription` (or `seconds` pass).
    public func waitFor(
        _ count: Int,
        to subscription: WebPushSubscription,
        seconds: Double = 30
    ) async throws -> [Message] {
        let deadline = Date().addingTimeInterval(seconds)
        while messages(to: subscription).count < count, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return messages(to: subscription)
    }

    public func stop() async { await server.stop() }

    /// For a test in another process (the browser tests): `GET /control/subscribe` answers a new subscription,
    /// `GET /control/messages` every message so far, decrypted (and `failures`).
    func control(_ path: String) throws -> Response? {
        let json: Data
        switch path {
        case "/control/subscribe":
            json = try PlazaJSON.encoder().encode(subscribe())
        case "/control/messages":
            let messages = try messages.map { message -> [String: Any] in
                [
                    "subscription": message.subscription, "urgency": message.urgency ?? "", "ttl": message.ttl ?? 0,
                    "payload": try JSONSerialization.jsonObject(with: message.plaintext),
                ]
            }
            json = try JSONSerialization.data(withJSONObject: ["messages": messages, "failures": failures])
        default:
            return nil
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }

    private func receive(id: String, headers: HTTPFields, body: Data) -> Response {
        guard var subscriber = state.withLock({ $0.subscribers[id] }) else { return Response(status: .gone) }
        if !subscriber.answers.isEmpty {
            let answer = subscriber.answers.removeFirst()
            state.withLock { $0.subscribers[id] = subscriber }
            var fields = HTTPFields()
            if let retryAfter = answer.retryAfter { fields[.retryAfter] = retryAfter }
            return Response(status: .init(code: answer.status), headers: fields)
        }
        do {
            guard headers[HTTPField.Name("Content-Encoding")!] == "aes128gcm" else {
                throw Refused("Content-Encoding is not aes128gcm")
            }
            let (vapidKey, subject) = try verifyVAPID(headers[.authorization] ?? "")
            let plaintext = try Self.decrypt(body, key: subscriber.key, auth: subscriber.auth)
            let message = Message(
                subscription: id,
                plaintext: plaintext,
                ttl: headers[HTTPField.Name("TTL")!].flatMap { Int($0) },
                urgency: headers[HTTPField.Name("Urgency")!],
                topic: headers[HTTPField.Name("Topic")!],
                vapidKey: vapidKey,
                subject: subject
            )
            state.withLock { $0.messages.append(message) }
            return Response(status: .created)
        } catch {
            state.withLock { $0.failures.append("\(error)") }
            return Response(status: .badRequest)
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// RFC 8292: `vapid t=<JWT>, k=<key>`; the JWT is ES256-signed by `k`, for this origin, not expired, at most 24 h.
    private func verifyVAPID(_ authorization: String) throws -> (key: String, subject: String) {
        guard authorization.hasPrefix("vapid ") else { throw Refused("no vapid authorization") }
        var parameters: [String: String] = [:]
        for part in authorization.dropFirst(6).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { parameters[pair[0]] = pair[1] }
        }
        guard let token = parameters["t"], let k = parameters["k"], let keyData = Data(base64URL: k) else {
            throw Refused("t or k missing")
        }
        let parts = token.split(separator: ".").map(String.init)
        guard parts.count == 3, let claimsData = Data(base64URL: parts[1]),
            let signatureData = Data(base64URL: parts[2]),
            let header = Data(base64URL: parts[0]).flatMap({
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            }),
            header["alg"] as? String == "ES256"
        else { throw Refused("malformed JWT") }
        let key = try P256.Signing.PublicKey(x963Representation: keyData)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureData)
        guard key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)) else {
            throw Refused("bad JWT signature")
        }
        guard let claims = try JSONSerialization.jsonObject(with: claimsData) as? [String: Any] else {
            throw Refused("claims")
        }
        guard claims["aud"] as? String == origin else {
            throw Refused("aud \(claims["aud"] ?? "none") is not \(origin)")
        }
        let now = Date().timeIntervalSince1970
        guard let exp = claims["exp"] as? Double ?? (claims["exp"] as? Int).map(Double.init), exp > now,
            exp <= now + 86_400
        else {
            throw Refused("exp out of range")
        }
        guard let subject = claims["sub"] as? String, subject.hasPrefix("mailto:") || subject.hasPrefix("https://")
        else { throw Refused("sub") }
        return (k, subject)
    }

    /// RFC 8291 §3.4 and RFC 8188 on the receiving side (one record).
    public static func decrypt(_ body: Data, key: P256.KeyAgreement.PrivateKey, auth: Data) throws -> Data {
        let bytes = [UInt8](body)
        guard bytes.count > 21 else { throw Refused("short body") }
        let salt = Data(bytes[0..<16])
        let idLength = Int(bytes[20])
        guard bytes.count > 21 + idLength + 16 else { throw Refused("short body") }
        let serverPublic = Data(bytes[21..<(21 + idLength)])
        let sealed = Data(bytes[(21 + idLength)...])
        let shared = try key.sharedSecretFromKeyAgreement(
            with: try P256.KeyAgreement.PublicKey(x963Representation: serverPublic)
        )
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self,
            salt: auth,
            sharedInfo: Data("WebPush: info".utf8) + [0] + key.publicKey.x963Representation + serverPublic,
            outputByteCount: 32
        )
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(
            pseudoRandomKey: prk,
            info: Data("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16
        )
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: prk,
            info: Data("Content-Encoding: nonce".utf8) + [0],
            outputByteCount: 12
        )
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }),
            ciphertext: sealed.dropLast(16),
            tag: sealed.suffix(16)
        )
        var plaintext = [UInt8](try AES.GCM.open(box, using: cek))
        // Padding (zeros) after the delimiter: the last record ends with 0x02.
        while plaintext.last == 0 { plaintext.removeLast() }
        guard plaintext.last == 2 else { throw Refused("no last-record delimiter") }
        return Data(plaintext.dropLast())
    }
}
