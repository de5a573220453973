import Crypto
import Foundation
import JWTKit
import NIOSSL
import SwiftASN1
import X509
import _CryptoExtras

/// How Plaza signs loyalty cards' wallet passes: Apple Wallet's `.pkpass` with the operator's Pass Type ID certificate
/// (`PLAZA_PASS_*`), and Google Wallet's "save" links with a service account's key (`PLAZA_GOOGLE_WALLET_*`). Unset,
/// the buttons do not show; `plaza demo` signs with certificates and keys of its own and says so.
public struct WalletPassConfiguration: Sendable {
    public struct Apple: Sendable {
        /// `pass.com.example.plaza`: the Pass Type ID the certificate was issued for.
        public var passTypeIdentifier: String
        public var teamIdentifier: String
        public var certificate: Certificate
        public var privateKey: Certificate.PrivateKey
        /// Apple's WWDR intermediate certificate (`PLAZA_PASS_WWDR`), included in every signature.
        public var intermediates: [Certificate]
        /// A certificate of the demo's own: Wallet will not add such passes (the bytes are right, the signer unknown).
        public var selfSigned: Bool
    }

    public var apple: Apple?

    public struct Google: Sendable {
        /// The Google Wallet issuer id (digits) that prefixes every class and object id.
        public var issuerId: String
        /// The service account's e-mail: the JWT's `iss`.
        public var serviceAccount: String
        /// Its RSA private key (RS256).
        public var privateKey: JWTKit.Insecure.RSA.PrivateKey
        /// A key of the demo's own: Google will not save such passes.
        public var demo: Bool

        /// The public half, PEM: what Google (and a test) checks the signatures with.
        public var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }
    }

    public var google: Google?
    /// Where the web app is (the JWT's `origins`, the pass's logo), set from `PLAZA_BASE_URL`.
    public var origin = ""
    /// Where pass updates are pushed: Apple's production APNs (passes have no sandbox), or a test's own server.
    public var apnsHost = "https://api.push.apple.com"
    /// The certificates a test's APNs server chains to; set, even a self-signed pass certificate pushes there.
    public var apnsTrustRoots: [NIOSSLCertificate]?

    public init() {}

    /// `PLAZA_PASS_TYPE_ID`, `PLAZA_PASS_TEAM_ID`, `PLAZA_PASS_CERTIFICATE` and `PLAZA_PASS_KEY` (PEM text or the path
    /// of a PEM file), `PLAZA_PASS_WWDR` optional; all or none of the four.
    mutating func read(_ value: (String) -> String?, fail: (String, String) -> Void) {
        readGoogle(value, fail: fail)
        let names = ["PLAZA_PASS_TYPE_ID", "PLAZA_PASS_TEAM_ID", "PLAZA_PASS_CERTIFICATE", "PLAZA_PASS_KEY"]
        let given = names.filter { value($0) != nil }
        guard !given.isEmpty else { return }
        guard given.count == names.count else {
            for name in names where value(name) == nil { fail(name, "is needed with the other PLAZA_PASS_ variables") }
            return
        }
        guard let certificate = try? Certificate(pemEncoded: Self.pem(value("PLAZA_PASS_CERTIFICATE") ?? "")) else {
            fail(
                "PLAZA_PASS_CERTIFICATE",
                "must be the Pass Type ID certificate in PEM (its text, or the path of the file)"
            )
            return
        }
        guard let key = try? Certificate.PrivateKey(pemEncoded: Self.pem(value("PLAZA_PASS_KEY") ?? "")) else {
            fail("PLAZA_PASS_KEY", "must be the certificate's private key in PEM (its text, or the path of the file)")
            return
        }
        var intermediates: [Certificate] = []
        if let wwdr = value("PLAZA_PASS_WWDR") {
            guard let parsed = try? Certificate(pemEncoded: Self.pem(wwdr)) else {
                fail(
                    "PLAZA_PASS_WWDR",
                    "must be Apple's WWDR intermediate certificate in PEM (its text, or the path of the file)"
                )
                return
            }
            intermediates = [parsed]
        }
        apple = Apple(
            passTypeIdentifier: value("PLAZA_PASS_TYPE_ID") ?? "",
            teamIdentifier: value("PLAZA_PASS_TEAM_ID") ?? "",
            certificate: certificate,
            privateKey: key,
            intermediates: intermediates,
            selfSigned: false
        )
    }

    /// `PLAZA_GOOGLE_WALLET_ISSUER_ID`, `PLAZA_GOOGLE_WALLET_SERVICE_ACCOUNT` and `PLAZA_GOOGLE_WALLET_KEY` (the service
    /// account's RSA key, PEM text or path): all or none.
    mutating func readGoogle(_ value: (String) -> String?, fail: (String, String) -> Void) {
        let names = ["PLAZA_GOOGLE_WALLET_ISSUER_ID", "PLAZA_GOOGLE_WALLET_SERVICE_ACCOUNT", "PLAZA_GOOGLE_WALLET_KEY"]
        let given = names.filter { value($0) != nil }
        guard !given.isEmpty else { return }
        guard given.count == names.count else {
            for name in names where value(name) == nil {
                fail(name, "is needed with the other PLAZA_GOOGLE_WALLET_ variables")
            }
            return
        }
        let issuer = value("PLAZA_GOOGLE_WALLET_ISSUER_ID") ?? ""
        guard !issuer.isEmpty, issuer.allSatisfy(\.isNumber) else {
            fail("PLAZA_GOOGLE_WALLET_ISSUER_ID", "must be the issuer id Google Pay & Wallet Console shows (digits)")
            return
        }
        guard let key = try? JWTKit.Insecure.RSA.PrivateKey(pem: Self.pem(value("PLAZA_GOOGLE_WALLET_KEY") ?? ""))
        else {
            fail(
                "PLAZA_GOOGLE_WALLET_KEY",
                "must be the service account's RSA private key, 2048 bits or more, in PEM (text or path)"
            )
            return
        }
        google = Google(
            issuerId: issuer,
            serviceAccount: value("PLAZA_GOOGLE_WALLET_SERVICE_ACCOUNT") ?? "",
            privateKey: key,
            demo: false
        )
    }

    /// The demo's Google signer: a fresh RSA key (Google will not save what it signs; the link and its JWT are right).
    public static func demoGoogle() throws -> Google {
        Google(
            issuerId: "3388000000022000000",
            serviceAccount: "plaza-demo@plaza-demo.iam.gserviceaccount.com",
            privateKey: try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048)),
            demo: true
        )
    }

    /// PEM text as given, or read from the file it names (every `PLAZA_*` key or certificate setting takes either).
    static func pem(_ text: String) -> String {
        text.contains("-----BEGIN")
            ? text : (FileManager.default.contents(atPath: text).flatMap { String(data: $0, encoding: .utf8) } ?? "")
    }

    /// The demo's signer: a P-256 key derived from the secret key and a certificate it signs itself.
    public static func demoApple(secretKey: String, now: Date = Date()) throws -> Apple {
        let bytes = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secretKey.utf8)),
            info: Data("plaza:pass-demo".utf8),
            outputByteCount: 32
        )
        let key = Certificate.PrivateKey(
            try P256.Signing.PrivateKey(rawRepresentation: bytes.withUnsafeBytes { Data($0) })
        )
        let name = try DistinguishedName {
            CommonName("Pass Type ID: pass.test.plaza.demo")
            OrganizationName("Plaza demo (self-signed)")
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: key.publicKey,
            notValidBefore: now.addingTimeInterval(-3_600),
            notValidAfter: now.addingTimeInterval(365 * 86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                KeyUsage(digitalSignature: true)
            },
            issuerPrivateKey: key
        )
        return Apple(
            passTypeIdentifier: "pass.test.plaza.demo",
            teamIdentifier: "PLAZADEMO1",
            certificate: certificate,
            privateKey: key,
            intermediates: [],
            selfSigned: true
        )
    }
}
