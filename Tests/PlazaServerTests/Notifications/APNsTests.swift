import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// APNs end to end: an iOS app's token registered through the API, a charge, and Apple's service stood in for by an
/// HTTP/2 server over TLS that checks what Apple checks (the provider JWT, the topic, the push type).
@Suite struct APNsTests {
    @Test(arguments: TestEngine.enabled)
    func aChargeReachesTheIPhoneOverHTTP2AndAGoneTokenIsDropped(_ engine: TestEngine) async throws {
        let apple = try await APNsStandIn.start()
        defer { Task { await apple.stop() } }
        let teamKey = P256.Signing.PrivateKey()
        try await TestPlaza.withApp(
            engine,
            .live,
            configure: {
                $0.push.apns = APNsSettings(
                    key: teamKey,
                    keyID: "KEY1234567",
                    teamID: "TEAM123456",
                    topic: "com.example.plaza",
                    host: apple.host
                )
                $0.push.apnsTrustRoots = [apple.certificate]
            }
        ) { client, _ in
            let (business, bruno, anna) = try await ChargeTests.counter(client)
            let token = String(repeating: "ab", count: 32)
            let phone = try await client.send(
                .post,
                "/v1/me/devices",
                json: DeviceRegistration(platform: .apns, token: token, topic: "com.example.plaza"),
                token: anna
            )
            #expect(phone.status == .created)

            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 420, token: bruno)
            let request = try #require(try await apple.waitFor(1).first)
            #expect(request.http2 && request.path == "/3/device/\(token)")
            #expect(
                request.headers["apns-topic"] == "com.example.plaza" && request.headers["apns-push-type"] == "alert"
            )
            #expect(request.headers["apns-priority"] == "10" && request.headers["apns-collapse-id"]?.count == 32)
            let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            let alert = (body["aps"] as? [String: Any])?["alert"] as? [String: Any]
            #expect(alert?["title"] as? String == "Corner Cafe asks you to pay $4.20.")
            #expect((body["plaza"] as? [String: Any])?["link"] as? String == "/wallet/charges")

            // The provider token: ES256 by the team's key, with its key id and team.
            let jwt = try #require(request.headers["authorization"]?.split(separator: " ").last).split(separator: ".")
                .map(String.init)
            let headerData = try #require(Data(base64URL: jwt[0]))
            let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
            let claimsData = try #require(Data(base64URL: jwt[1]))
            let claims = try #require(try JSONSerialization.jsonObject(with: claimsData) as? [String: Any])
            #expect(
                header["kid"] as? String == "KEY1234567" && header["alg"] as? String == "ES256"
                    && claims["iss"] as? String == "TEAM123456"
            )
            let signatureData = try #require(Data(base64URL: jwt[2]))
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureData)
            #expect(teamKey.publicKey.isValidSignature(signature, for: Data("\(jwt[0]).\(jwt[1])".utf8)))

            // Apple says the app is gone from the phone: the device goes.
            apple.answer(token, with: 410, reason: "Unregistered")
            _ = try await WalletDriver(client).charge(business: business.id, customer: "anna", 100, token: bruno)
            _ = try await apple.waitFor(2)
            for _ in 0..<100
            where try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items.count > 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await client.send(.get, "/v1/me/devices", token: anna).decode(Page<Device>.self).items.isEmpty)
        }
    }

    @Test func applesAnswersAreRead() {
        #expect(APNsSender.outcome(status: 200, reason: "", retryAfter: nil) == .delivered)
        #expect(APNsSender.outcome(status: 410, reason: "Unregistered", retryAfter: nil) == .gone)
        #expect(APNsSender.outcome(status: 400, reason: "BadDeviceToken", retryAfter: nil) == .gone)
        #expect(
            APNsSender.outcome(status: 429, reason: "TooManyRequests", retryAfter: nil)
                == .retry(seconds: nil, reason: "429 TooManyRequests")
        )
        #expect(
            APNsSender.outcome(status: 400, reason: "PayloadTooLarge", retryAfter: nil)
                == .rejected("400 PayloadTooLarge")
        )
    }
}
