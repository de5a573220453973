import Crypto
import Foundation
import PlazaCore

/// Random tokens and keyed hashes. Only hashes of tokens and codes are ever stored.
package struct Secrets: Sendable {
    let key: SymmetricKey
    let sealingKey: SymmetricKey

    init(secretKey: String) {
        // Derive separate keys per use from the operator's secret, so one leaked use reveals nothing else.
        key = SymmetricKey(data: SHA256.hash(data: Data("plaza:hash:\(secretKey)".utf8)))
        sealingKey = SymmetricKey(data: SHA256.hash(data: Data("plaza:seal:\(secretKey)".utf8)))
    }

    /// A keyed hash (HMAC-SHA256, hex): six-digit codes cannot be brute-forced from a database dump.
    func hash(_ value: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(value.utf8), using: key).hexString
    }

    /// The same keyed hash of raw bytes.
    func hash(bytes: Data) -> String {
        HMAC<SHA256>.authenticationCode(for: bytes, using: key).hexString
    }

    /// `plain` encrypted (AES-GCM, a key of its own derived from the operator's secret), as base64: for secrets the
    /// server must read again, such as an authenticator app's shared secret.
    func seal(_ plain: Data) throws -> String {
        guard let combined = try AES.GCM.seal(plain, using: sealingKey).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return combined.base64EncodedString()
    }

    /// What `seal` sealed; nil when it was sealed with another key or changed.
    func open(_ sealed: String) -> Data? {
        guard let data = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: data) else {
            return nil
        }
        return try? AES.GCM.open(box, using: sealingKey)
    }

    /// `bytes` random bytes as URL-safe base64 without padding.
    package static func randomToken(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return data.base64URLEncodedString()
    }

    /// A uniformly random six-digit code.
    static func sixDigitCode() -> String {
        String(format: "%06d", Int.random(in: 0..<1_000_000))
    }

    /// A uniformly random code of capitals and digits people read aloud without confusion (no 0/O, 1/I/L, 5/S).
    static func readableCode(length: Int = 8) -> String {
        let alphabet = Array("ABCDEFGHJKMNPQRTUVWXYZ2346789")
        return String((0..<length).map { _ in alphabet.randomElement()! })
    }

    /// Compares in time independent of where the strings differ.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
