import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlazaCore
import Synchronization
import _CryptoExtras

/// Google's OAuth2 token endpoint and FCM's HTTP v1 `messages:send` on loopback for the tests. The token endpoint
/// checks the assertion as Google does (RS256 by the service account's key, its scope, audience and lifetime) and
/// issues bearer tokens; `messages:send` checks the bearer token, the project and the message's shape, records the
/// message and answers 200, or what a test asked for (`UNREGISTERED`, 429 with `Retry-After`).
public final class FCMStandIn: Sendable {
    public struct Received: Sendable {
        public var token: String
        public var title: String
        public var body: String
        public var data: [String: String]
        /// The bearer token it came with.
        public var bearer: String
        /// The whole JSON body.
        public var json: Data
    }

    /// What the next message to a registration token is answered with.
    public enum Answer: Sendable {
        case unregistered
        case invalidToken
        case tooManyRequests(retryAfter: Int)
    }

    public let projectID: String
    public let clientEmail: String
    public let key: _RSA.Signing.PrivateKey
    private let server: LoopbackServer
    let state = Mutex<State>(State())

    struct State {
        var received: [Received] = []
        var answers: [String: [Answer]] = [:]
        /// Issued bearer tokens and when each expires; revoked ones are gone from here.
        var issued: [String: Date] = [:]
        var exchanges = 0
        var refusedAssertions: [String] = []
        var unauthorized = 0
        /// `expires_in` of the tokens it issues.
        var lifetime = 3_599
    }

    public var baseURL: String { "http://127.0.0.1:\(server.port)" }
    public var tokenURI: String { "\(baseURL)/token" }
    public var received: [Received] { state.withLock { $0.received } }
    /// How many assertions were exchanged for a bearer token.
    public var exchanges: Int { state.withLock { $0.exchanges } }
    /// Why assertions were refused (none when Plaza signs them right).
    public var refusedAssertions: [String] { state.withLock { $0.refusedAssertions } }
    /// How many sends came with a bearer token it did not (or no longer) accept.
    public var unauthorized: Int { state.withLock { $0.unauthorized } }

    /// The service account's JSON key, as Firebase's console gives it (with this stand-in's token endpoint).
    public var serviceAccountJSON: String {
        let object: [String: String] = [
            "type": "service_account",
            "project_id": projectID,
            "private_key_id": "0123456789abcdef",
            "private_key": key.pemRepresentation,
            "client_email": clientEmail,
            "token_uri": tokenURI,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    public static func start(projectID: String = "plaza-test") async throws -> FCMStandIn {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let box = Mutex<FCMStandIn?>(nil)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            guard let standIn = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            let body = try await request.body.collect(upTo: 1 << 20)
            return standIn.answer(request, body: Data(body.readableBytesView))
        }
        let server = try await LoopbackServer.start(name: "fcm-stand-in", responder: responder)
        let standIn = FCMStandIn(
            server: server,
            key: key,
            projectID: projectID,
            clientEmail: "plaza-push@\(projectID).iam.gserviceaccount.com"
        )
        box.withLock { $0 = standIn }
        return standIn
    }

    init(server: LoopbackServer, key: _RSA.Signing.PrivateKey, projectID: String, clientEmail: String) {
        self.server = server
        self.key = key
        self.projectID = projectID
        self.clientEmail = clientEmail
    }

    /// The next `times` messages to `token` get `answer`.
    public func answer(_ token: String, with answer: Answer, times: Int = 1) {
        state.withLock { $0.answers[token, default: []] += Array(repeating: answer, count: times) }
    }

    /// Every bearer token issued so far is refused from now on (401), as after a key rotation.
    public func revokeTokens() {
        state.withLock { $0.issued.removeAll() }
    }

    /// Tokens issued from now on live `seconds`.
    public func issueTokens(living seconds: Int) {
        state.withLock { $0.lifetime = seconds }
    }

    public func waitFor(_ count: Int, seconds: Double = 30) async throws -> [Received] {
        let deadline = Date().addingTimeInterval(seconds)
        while received.count < count, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return received
    }

    public func stop() async { await server.stop() }

    private func answer(_ request: Request, body: Data) -> Response {
        let path = request.uri.path
        if request.method == .post, path == "/token" { return token(body) }
        if request.method == .post, path.hasPrefix("/v1/projects/"), path.hasSuffix("/messages:send") {
            return send(request, path: path, body: body)
        }
        return Self.json(404, #"{"error":{"code":404,"message":"Not found","status":"NOT_FOUND"}}"#)
    }

    static func json(_ status: Int, _ text: String, headers extra: [(HTTPField.Name, String)] = []) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        for (name, value) in extra { headers[name] = value }
        return Response(
            status: .init(code: status),
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}
