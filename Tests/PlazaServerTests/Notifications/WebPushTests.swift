import Crypto
import Foundation
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The Web Push wire format against the RFCs' own examples, and the receiver the other tests trust against it.
@Suite struct WebPushTests {
    /// RFC 8291 Appendix A: the same keys and salt give the same bytes.
    @Test func encryptionMatchesTheRFCsExample() throws {
        let decode = { (text: String) in try #require(Data(base64URL: text)) }
        let server = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: decode("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")
        )
        let body = try WebPush.encrypt(
            Data("When I grow up, I want to be a watermelon".utf8),
            p256dh: decode("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            auth: decode("BTBZMqHH6r4Tts7J_aSIgg"),
            salt: decode("DGv6ra1nlYgDCS1FRnbzlw"),
            serverKey: server
        )
        #expect(
            body.base64URLEncodedString()
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
        let browser = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")
        )
        #expect(
            try WebPushReceiver.decrypt(body, key: browser, auth: decode("BTBZMqHH6r4Tts7J_aSIgg"))
                == Data("When I grow up, I want to be a watermelon".utf8)
        )
    }

    /// A VAPID token names the push service's origin, expires within a day, and verifies with the key beside it.
    @Test func vapidTokensAreSignedForTheServicesOrigin() throws {
        let push = WebPush(vapid: P256.Signing.PrivateKey(), subject: "mailto:ops@example.com")
        let header = try push.authorization(
            endpoint: try #require(URL(string: "https://push.example.net:8443/send/abc"))
        )
        let token = try #require(header.split(separator: " ").dropFirst().first).dropFirst(2).dropLast()
        let parts = token.split(separator: ".").map(String.init)
        let claimsData = try #require(Data(base64URL: parts[1]))
        let claims = try #require(try JSONSerialization.jsonObject(with: claimsData) as? [String: Any])
        #expect(
            claims["aud"] as? String == "https://push.example.net:8443"
                && claims["sub"] as? String == "mailto:ops@example.com"
        )
        let signatureData = try #require(Data(base64URL: parts[2]))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureData)
        #expect(push.vapid.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        #expect(header.hasSuffix("k=\(push.publicKey)"))
        #expect(
            WebPush.origin(of: try #require(URL(string: "https://fcm.googleapis.com/fcm/send/x")))
                == "https://fcm.googleapis.com"
        )
    }

    @Test func pushServicesAnswersAreRead() {
        #expect(WebPushSender.outcome(status: 201, retryAfter: nil, body: "") == .delivered)
        #expect(WebPushSender.outcome(status: 410, retryAfter: nil, body: "") == .gone)
        #expect(WebPushSender.outcome(status: 404, retryAfter: nil, body: "") == .gone)
        #expect(WebPushSender.outcome(status: 429, retryAfter: "30", body: "") == .retry(seconds: 30, reason: "429 "))
        #expect(WebPushSender.outcome(status: 413, retryAfter: nil, body: "too big") == .rejected("413 too big"))
    }
}
