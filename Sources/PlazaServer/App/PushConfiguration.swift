import Crypto
import Foundation
import NIOSSL
import PlazaCore

/// How Plaza signs Web Push (VAPID) and reaches APNs.
public struct PushConfiguration: Sendable {
    /// The VAPID key (`PLAZA_VAPID_PRIVATE_KEY`, PEM or the 32-byte scalar in base64url). Unset, it is derived from
    /// the secret key, so every process that shares the secret (as PostgreSQL requires) signs with the same key and
    /// no further file is needed. Set it to keep browsers' subscriptions when the secret key is rotated.
    public var vapidPrivateKey: P256.Signing.PrivateKey?
    /// `PLAZA_VAPID_SUBJECT`: how push services reach the operator (`mailto:` or `https:`); else the public URL.
    public var vapidSubject: String?
    /// APNs, when `PLAZA_APNS_KEY`, `PLAZA_APNS_KEY_ID`, `PLAZA_APNS_TEAM_ID` and `PLAZA_APNS_TOPIC` are all set.
    public var apns: APNsSettings?
    /// The certificates the APNs host must chain to, when not the system's (a test's own APNs server).
    public var apnsTrustRoots: [NIOSSLCertificate]?
    /// FCM for Android apps, when `PLAZA_FCM_SERVICE_ACCOUNT` is set.
    public var fcm: FCMSettings?
    /// Push-service hosts Web Push endpoints may use besides the built-in ones (`PLAZA_PUSH_HOSTS`): host names,
    /// `*.example.net` for subdomains, or a literal origin (`http://127.0.0.1:9300`) for a local stand-in.
    public var hosts: [String] = []

    public init() {}

    /// The key in `text`: PEM, or a raw scalar in base64url.
    static func parseKey(_ text: String) -> P256.Signing.PrivateKey? {
        if text.contains("-----BEGIN") { return try? P256.Signing.PrivateKey(pemRepresentation: text) }
        guard let raw = Data(base64URL: text), raw.count == 32 else { return nil }
        return try? P256.Signing.PrivateKey(rawRepresentation: raw)
    }

    /// The key used when none is configured: derived from the secret key (HKDF), the same in every process.
    static func derivedKey(secretKey: String) -> P256.Signing.PrivateKey {
        for counter in 0..<100 {
            let bytes = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: Data(secretKey.utf8)),
                info: Data("plaza:vapid:\(counter)".utf8),
                outputByteCount: 32
            )
            // A scalar of zero or past the group's order (about one in four billion) takes the next counter.
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes.withUnsafeBytes { Data($0) }) {
                return key
            }
        }
        return P256.Signing.PrivateKey()
    }

    mutating func read(_ value: (String) -> String?, fail: (String, String) -> Void) {
        if let key = value("PLAZA_VAPID_PRIVATE_KEY") {
            if let parsed = Self.parseKey(key) {
                vapidPrivateKey = parsed
            } else {
                fail("PLAZA_VAPID_PRIVATE_KEY", "must be a P-256 private key: PEM, or its 32 bytes in base64url")
            }
        }
        readAPNs(value, fail: fail)
        readFCM(value, fail: fail)
        if let list = value("PLAZA_PUSH_HOSTS") {
            let entries = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter
            { !$0.isEmpty }
            if let bad = entries.first(where: { !OutboundGuard.isValidEntry($0) }) {
                fail(
                    "PLAZA_PUSH_HOSTS",
                    "must be host names, *.domain patterns or origins such as http://127.0.0.1:9300, separated by commas; '\(bad)' is none"
                )
            } else {
                hosts = entries
            }
        }
        if let subject = value("PLAZA_VAPID_SUBJECT") {
            if subject.hasPrefix("mailto:") || subject.hasPrefix("https://") {
                vapidSubject = subject
            } else {
                fail("PLAZA_VAPID_SUBJECT", "must be a mailto: or https: address where push services can reach you")
            }
        }
    }

    /// `PLAZA_FCM_SERVICE_ACCOUNT`: the service account's JSON key (its text, or the path of the file);
    /// `PLAZA_FCM_API_URL` only for a proxy or a stand-in (Google's by default).
    private mutating func readFCM(_ value: (String) -> String?, fail: (String, String) -> Void) {
        var apiURL = FCMSettings.googleAPI
        if let given = value("PLAZA_FCM_API_URL") {
            let trimmed = given.hasSuffix("/") ? String(given.dropLast()) : given
            if let url = URL(string: trimmed), ["https", "http"].contains(url.scheme), url.host != nil {
                apiURL = trimmed
            } else {
                fail("PLAZA_FCM_API_URL", "must be an http(s) address such as https://fcm.googleapis.com")
            }
            if value("PLAZA_FCM_SERVICE_ACCOUNT") == nil {
                fail("PLAZA_FCM_API_URL", "is used only with PLAZA_FCM_SERVICE_ACCOUNT")
            }
        }
        guard let account = value("PLAZA_FCM_SERVICE_ACCOUNT") else { return }
        switch FCMSettings.parse(serviceAccount: account, apiURL: apiURL) {
        case .success(let settings): fcm = settings
        case .failure(let error): fail("PLAZA_FCM_SERVICE_ACCOUNT", error.reason)
        }
    }

    /// `PLAZA_APNS_KEY` is the `.p8` key's PEM text or the path of the file; the environment picks Apple's host
    /// (`PLAZA_APNS_ENVIRONMENT`: production, the default, or sandbox for development builds of the app).
    private mutating func readAPNs(_ value: (String) -> String?, fail: (String, String) -> Void) {
        let names = ["PLAZA_APNS_KEY", "PLAZA_APNS_KEY_ID", "PLAZA_APNS_TEAM_ID", "PLAZA_APNS_TOPIC"]
        let given = names.compactMap { name in value(name).map { (name, $0) } }
        guard !given.isEmpty else { return }
        guard given.count == names.count else {
            for name in names where value(name) == nil { fail(name, "is needed with the other PLAZA_APNS_ variables") }
            return
        }
        var host = APNsSettings.production
        switch value("PLAZA_APNS_ENVIRONMENT") ?? "production" {
        case "production": host = APNsSettings.production
        case "sandbox": host = APNsSettings.sandbox
        default: fail("PLAZA_APNS_ENVIRONMENT", "must be production or sandbox")
        }
        let text = value("PLAZA_APNS_KEY") ?? ""
        let pem = WalletPassConfiguration.pem(text)
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
            fail("PLAZA_APNS_KEY", "must be the .p8 key Apple gave (its PEM text, or the path of the file)")
            return
        }
        apns = APNsSettings(
            key: key,
            keyID: value("PLAZA_APNS_KEY_ID") ?? "",
            teamID: value("PLAZA_APNS_TEAM_ID") ?? "",
            topic: value("PLAZA_APNS_TOPIC") ?? "",
            host: host
        )
    }
}
