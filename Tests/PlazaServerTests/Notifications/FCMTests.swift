import Foundation
import PlazaCore
import PlazaTestSupport
import Testing
import _CryptoExtras

@testable import PlazaServer

/// FCM's pieces on their own: the OAuth2 assertion, the message, FCM's answers, and the service account setting.
@Suite struct FCMTests {
    static let key = Result { try _RSA.Signing.PrivateKey(keySize: .bits2048) }

    static func settings() throws -> FCMSettings {
        FCMSettings(
            projectID: "plaza-test",
            clientEmail: "push@plaza-test.iam.gserviceaccount.com",
            privateKey: try key.get(),
            tokenURI: "https://oauth2.googleapis.com/token"
        )
    }

    static func json(_ part: Substring) throws -> [String: Any] {
        let data = try #require(Data(base64URL: String(part)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theAssertionIsSignedByTheServiceAccountForTheMessagingScopeForAnHour() throws {
        let settings = try Self.settings()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let parts = try FCMSender.assertion(settings, now: now).split(separator: ".")
        #expect(parts.count == 3)
        let (header, claims) = (try Self.json(parts[0]), try Self.json(parts[1]))
        #expect(header["alg"] as? String == "RS256" && header["typ"] as? String == "JWT")
        #expect(claims["iss"] as? String == "push@plaza-test.iam.gserviceaccount.com")
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging")
        #expect(claims["aud"] as? String == "https://oauth2.googleapis.com/token")
        #expect(claims["iat"] as? Int == 1_800_000_000 && claims["exp"] as? Int == 1_800_003_600)
        let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Data(base64URL: String(parts[2]))))
        let signed = Data("\(parts[0]).\(parts[1])".utf8)
        #expect(settings.privateKey.publicKey.isValidSignature(signature, for: signed, padding: .insecurePKCS1v1_5))
        let other = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        #expect(!other.publicKey.isValidSignature(signature, for: signed, padding: .insecurePKCS1v1_5))
    }

    @Test func theMessageCarriesTheTokenTheAlertAndPlazasPayloadAsStrings() throws {
        let id = UUID()
        let payload = PushPayload(
            id: id,
            kind: .moneyRequests,
            title: "Corner Cafe asks you to pay $4.20.",
            body: "Latte",
            link: "/wallet/charges",
            sentAt: Date(timeIntervalSince1970: 1_800_000_000)
        )
        let body = try FCMSender.body(PushMessage(payload), token: "fcm:token-1")
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let message = try #require(object["message"] as? [String: Any])
        #expect(message["token"] as? String == "fcm:token-1")
        let notification = message["notification"] as? [String: String]
        #expect(notification == ["title": "Corner Cafe asks you to pay $4.20.", "body": "Latte"])
        let data = try #require(message["data"] as? [String: String])
        #expect(data["id"] == id.uuidString.lowercased() && data["kind"] == "money.requests")
        #expect(data["link"] == "/wallet/charges" && data["sentAt"] == "2027-01-15T08:00:00Z")
        let android = try #require(message["android"] as? [String: String])
        #expect(android["priority"] == "HIGH" && android["ttl"] == "600s" && android["collapse_key"]?.count == 32)
    }

    @Test func fcmsAnswersAreRead() {
        let unregistered =
            #"{"error":{"code":404,"status":"NOT_FOUND","details":[{"errorCode":"UNREGISTERED"}]}}"#
        #expect(FCMSender.outcome(status: 200, body: "{}", retryAfter: nil) == .delivered)
        #expect(FCMSender.outcome(status: 404, body: unregistered, retryAfter: nil) == .gone)
        let badToken =
            #"{"error":{"code":400,"message":"The registration token is not a valid FCM registration token","status":"INVALID_ARGUMENT","details":[{"fieldViolations":[{"field":"message.token"}]}]}}"#
        #expect(FCMSender.outcome(status: 400, body: badToken, retryAfter: nil) == .gone)
        let badTitle =
            #"{"error":{"code":400,"message":"Invalid value at 'message.notification.title'","status":"INVALID_ARGUMENT","details":[{"fieldViolations":[{"field":"message.notification.title"}]}]}}"#
        #expect(FCMSender.outcome(status: 400, body: badTitle, retryAfter: nil).isRejected)
        let busy = FCMSender.outcome(status: 429, body: "{}", retryAfter: "7")
        let down = FCMSender.outcome(status: 503, body: "", retryAfter: nil)
        #expect(busy.retrySeconds == .some(7) && down.retrySeconds == .some(nil))
        #expect(FCMSender.outcome(status: 401, body: "", retryAfter: nil).retrySeconds == .some(nil))
    }

    @Test func theServiceAccountIsReadFromItsJSONOrItsFileAndABadOneIsNamed() async throws {
        let fcm = try await FCMStandIn.start()
        defer { Task { await fcm.stop() } }
        var failures: [String: String] = [:]
        var push = PushConfiguration()
        push.read({ ["PLAZA_FCM_SERVICE_ACCOUNT": fcm.serviceAccountJSON][$0] }, fail: { failures[$0] = $1 })
        #expect(failures.isEmpty && push.fcm?.projectID == "plaza-test" && push.fcm?.tokenURI == fcm.tokenURI)
        #expect(push.fcm?.apiURL == "https://fcm.googleapis.com")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fcm-\(UUID()).json").path
        try Data(fcm.serviceAccountJSON.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var fromFile = PushConfiguration()
        let values = ["PLAZA_FCM_SERVICE_ACCOUNT": path, "PLAZA_FCM_API_URL": fcm.baseURL + "/"]
        fromFile.read({ values[$0] }, fail: { failures[$0] = $1 })
        #expect(failures.isEmpty && fromFile.fcm?.clientEmail == fcm.clientEmail && fromFile.fcm?.apiURL == fcm.baseURL)

        var bad = PushConfiguration()
        let wrong = ["PLAZA_FCM_SERVICE_ACCOUNT": #"{"project_id":"p"}"#, "PLAZA_FCM_API_URL": "ftp://x"]
        bad.read({ wrong[$0] }, fail: { failures[$0] = $1 })
        #expect(bad.fcm == nil && failures["PLAZA_FCM_SERVICE_ACCOUNT"]?.contains("JSON key") == true)
        #expect(failures["PLAZA_FCM_API_URL"] != nil)
    }

    @Test func androidTokensAreCheckedAndKeptAsGiven() {
        let token = "dGhpcyBpcyBub3QgYSByZWFsIHRva2Vu:APA91bH-Example_Token.Part"
        #expect(NotificationRules.registrationProblems(DeviceRegistration(platform: .fcm, token: token)).isEmpty)
        let bad = NotificationRules.registrationProblems(DeviceRegistration(platform: .fcm, token: "short token"))
        #expect(bad.map(\.field) == ["token"])
        #expect(
            NotificationRules.shortName("Anna Keller") == "Anna K." && NotificationRules.shortName("Anna") == "Anna"
        )
    }
}

extension PushOutcome {
    var isRejected: Bool { if case .rejected = self { true } else { false } }
    /// `.some(seconds)` for a retry, nil for anything else.
    var retrySeconds: Int?? { if case .retry(let seconds, _) = self { .some(seconds) } else { nil } }
}
