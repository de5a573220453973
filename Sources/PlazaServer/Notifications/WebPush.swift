import Crypto
import Foundation
import PlazaCore
import Synchronization

/// Web Push as browsers' push services take it: the message encrypted for the subscription (RFC 8291, `aes128gcm`
/// of RFC 8188 in one record) and signed for by the application server's VAPID key (RFC 8292).
package final class WebPush: Sendable {
    /// The application server's key pair: browsers subscribe with its public half.
    let vapid: P256.Signing.PrivateKey
    /// Who push services may contact about our traffic (`mailto:` or an `https` page), in every JWT.
    let subject: String
    private let tokens = Mutex<[String: (token: String, expires: Date)]>([:])

    package init(vapid: P256.Signing.PrivateKey, subject: String) {
        self.vapid = vapid
        self.subject = subject
    }

    /// The uncompressed public key, base64url: the page's `applicationServerKey`, the `k` of every request.
    var publicKey: String { vapid.publicKey.x963Representation.base64URLEncodedString() }

    /// The record size written into each message's header (one record holds any payload push services accept).
    static let recordSize: UInt32 = 4096

    /// `plaintext` encrypted for the browser holding the private half of `p256dh` and the secret `auth`.
    /// `salt` and `serverKey` are random per message; tests pass fixed ones to compare with RFC 8291's example.
    package static func encrypt(
        _ plaintext: Data,
        p256dh: Data,
        auth: Data,
        salt: Data = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }),
        serverKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()
    ) throws -> Data {
        let browserKey = try P256.KeyAgreement.PublicKey(x963Representation: p256dh)
        let shared = try serverKey.sharedSecretFromKeyAgreement(with: browserKey)
        let serverPublic = serverKey.publicKey.x963Representation
        // IKM = HKDF(salt: auth, ECDH secret, info: "WebPush: info" 0x00 ua_public as_public, 32 bytes).
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self,
            salt: auth,
            sharedInfo: Data("WebPush: info".utf8) + [0] + p256dh + serverPublic,
            outputByteCount: 32
        )
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let key = HKDF<SHA256>.expand(
            pseudoRandomKey: prk,
            info: Data("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16
        )
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: prk,
            info: Data("Content-Encoding: nonce".utf8) + [0],
            outputByteCount: 12
        )
        // One record: the payload, then the last-record delimiter 0x02 (no padding).
        let sealed = try AES.GCM.seal(
            plaintext + [2],
            using: key,
            nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) })
        )
        var body = salt
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(serverPublic.count))
        body.append(serverPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// `Authorization: vapid t=<JWT>, k=<public key>` for the push service at `endpoint`'s origin. A token is signed
    /// once per origin and reused for an hour (it is valid for twelve).
    func authorization(endpoint: URL, now: Date = Date()) throws -> String {
        let audience = Self.origin(of: endpoint)
        if let cached = tokens.withLock({ $0[audience] }), cached.expires > now.addingTimeInterval(11 * 3600) {
            return "vapid t=\(cached.token), k=\(publicKey)"
        }
        let expires = now.addingTimeInterval(12 * 3600)
        let token = try Self.jwt(
            claims: ["aud": audience, "exp": Int(expires.timeIntervalSince1970), "sub": subject],
            key: vapid
        )
        tokens.withLock { $0[audience] = (token, expires) }
        return "vapid t=\(token), k=\(publicKey)"
    }

    /// An ES256 JWT (header `{"typ":"JWT","alg":"ES256"}`), also what APNs's token authentication takes.
    static func jwt(claims: [String: any Sendable], key: P256.Signing.PrivateKey, keyID: String? = nil) throws -> String
    {
        var header: [String: String] = ["typ": "JWT", "alg": "ES256"]
        if let keyID { header["kid"] = keyID }
        let encode = { (object: Any) throws -> String in
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                .base64URLEncodedString()
        }
        let input = "\(try encode(header)).\(try encode(claims))"
        let signature = try key.signature(for: Data(input.utf8))
        return "\(input).\(signature.rawRepresentation.base64URLEncodedString())"
    }

    /// `https://host[:port]`: the JWT's audience.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme ?? "https"
        let standard = (scheme == "https" && url.port == 443) || (scheme == "http" && url.port == 80)
        return "\(scheme)://\(url.host ?? "")" + (url.port.map { standard ? "" : ":\($0)" } ?? "")
    }
}
