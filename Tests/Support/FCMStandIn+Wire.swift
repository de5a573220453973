import Foundation
import HTTPTypes
import Hummingbird
import PlazaCore
import Synchronization
import _CryptoExtras

/// What the stand-in checks: the assertion at the token endpoint, the bearer token and the message at `messages:send`.
extension FCMStandIn {
    /// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<jwt>`, as Google's token endpoint takes it.
    func token(_ body: Data) -> Response {
        let form = Self.form(String(decoding: body, as: UTF8.self))
        let now = Date()
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = form["assertion"]
        else { return refuse("unsupported_grant_type") }
        if let problem = assertionProblem(assertion, now: now) { return refuse(problem) }
        let value = "ya29.stand-in.\(UUID().uuidString.lowercased())"
        let lifetime = state.withLock { state in
            state.exchanges += 1
            state.issued[value] = now.addingTimeInterval(TimeInterval(state.lifetime))
            return state.lifetime
        }
        return Self.json(200, #"{"access_token":"\#(value)","expires_in":\#(lifetime),"token_type":"Bearer"}"#)
    }

    private func refuse(_ reason: String) -> Response {
        state.withLock { $0.refusedAssertions.append(reason) }
        return Self.json(400, #"{"error":"invalid_grant","error_description":"\#(reason)"}"#)
    }

    /// Why Google would refuse the assertion; nil when it would not.
    func assertionProblem(_ assertion: String, now: Date) -> String? {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Data(base64URL: parts[0]), let claimsData = Data(base64URL: parts[1]),
            let signatureData = Data(base64URL: parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any]
        else { return "not a JWT" }
        guard header["alg"] as? String == "RS256" else { return "alg is not RS256" }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signatureData)
        guard
            key.publicKey.isValidSignature(
                signature,
                for: Data("\(parts[0]).\(parts[1])".utf8),
                padding: .insecurePKCS1v1_5
            )
        else { return "bad signature" }
        guard claims["iss"] as? String == clientEmail else { return "iss is not the service account" }
        guard claims["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging" else {
            return "scope is not firebase.messaging"
        }
        guard claims["aud"] as? String == tokenURI else { return "aud is not the token endpoint" }
        guard let iat = claims["iat"] as? Int, let exp = claims["exp"] as? Int else { return "no iat or exp" }
        let seconds = Int(now.timeIntervalSince1970)
        guard iat <= seconds + 60, exp > seconds, exp - iat <= 3_600 else { return "expired or longer than an hour" }
        return nil
    }

    /// `POST /v1/projects/{project}/messages:send`.
    func send(_ request: Request, path: String, body: Data) -> Response {
        let authorization = request.headers[.authorization] ?? ""
        let bearer = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : ""
        let valid = state.withLock { state in
            guard let expires = state.issued[bearer], expires > Date() else {
                state.unauthorized += 1
                return false
            }
            return true
        }
        guard valid else {
            return Self.json(
                401,
                #"{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}"#
            )
        }
        guard path == "/v1/projects/\(projectID)/messages:send" else {
            return Self.json(
                403,
                #"{"error":{"code":403,"message":"Permission denied on the project.","status":"PERMISSION_DENIED"}}"#
            )
        }
        guard let received = Self.message(body, bearer: bearer) else {
            return Self.json(
                400,
                #"{"error":{"code":400,"message":"Invalid JSON payload received.","status":"INVALID_ARGUMENT"}}"#
            )
        }
        let scripted: Answer? = state.withLock { state in
            state.received.append(received)
            guard var waiting = state.answers[received.token], !waiting.isEmpty else { return nil }
            let next = waiting.removeFirst()
            state.answers[received.token] = waiting
            return next
        }
        let fcmError = #""@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError""#
        switch scripted {
        case nil:
            return Self.json(200, #"{"name":"projects/\#(projectID)/messages/\#(UUID().uuidString)"}"#)
        case .unregistered:
            return Self.json(
                404,
                #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND","details":[{\#(fcmError),"errorCode":"UNREGISTERED"}]}}"#
            )
        case .invalidToken:
            return Self.json(
                400,
                #"{"error":{"code":400,"message":"The registration token is not a valid FCM registration token","status":"INVALID_ARGUMENT","details":[{\#(fcmError),"errorCode":"INVALID_ARGUMENT"},{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.token","description":"Invalid registration token"}]}]}}"#
            )
        case .tooManyRequests(let seconds):
            return Self.json(
                429,
                #"{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED","details":[{\#(fcmError),"errorCode":"QUOTA_EXCEEDED"}]}}"#,
                headers: [(.retryAfter, String(seconds))]
            )
        }
    }

    /// The message when it has FCM's shape: `{"message":{"token","notification":{"title","body"},"data":{…}}}`,
    /// every `data` value a string.
    static func message(_ body: Data, bearer: String) -> Received? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let message = object["message"] as? [String: Any], let token = message["token"] as? String, !token.isEmpty,
            let notification = message["notification"] as? [String: Any],
            let title = notification["title"] as? String, let text = notification["body"] as? String,
            let data = message["data"] as? [String: Any]
        else { return nil }
        var strings: [String: String] = [:]
        for (name, value) in data {
            guard let string = value as? String else { return nil }
            strings[name] = string
        }
        return Received(token: token, title: title, body: text, data: strings, bearer: bearer, json: body)
    }

    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let decode = { (s: String) in s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? s }
            fields[decode(parts[0])] = decode(parts[1])
        }
        return fields
    }
}
