import Crypto
import Foundation

/// RFC 6238 time-based one-time passwords as authenticator apps make them: HMAC-SHA-1, 30-second steps, 6 digits.
package enum TOTP {
    package static let period: TimeInterval = 30

    /// The time step `date` falls in (RFC 6238's T, with T0 = 0).
    package static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / period).rounded(.down))
    }

    /// The code of `step` (RFC 4226's HOTP with dynamic truncation), `digits` long.
    package static func code(secret: Data, step: Int64, digits: Int = 6) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret))
        let mac = code.withUnsafeBytes { Array($0) }
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - value.count)) + value
    }

    /// The step whose code `code` is, among the current step and the one before (a code typed as it changed); nil when
    /// neither matches.
    static func matchingStep(_ code: String, secret: Data, at date: Date) -> Int64? {
        let now = step(at: date)
        for step in [now, now - 1] where Secrets.constantTimeEquals(Self.code(secret: secret, step: step), code) {
            return step
        }
        return nil
    }

    /// `otpauth://totp/Plaza:alice?secret=…&issuer=Plaza&algorithm=SHA1&digits=6&period=30`, what the QR code holds.
    static func url(secret: String, account: String, issuer: String = "Plaza") -> String {
        var components = URLComponents()
        components.scheme = "otpauth"
        components.host = "totp"
        components.path = "/\(issuer):\(account)"
        components.queryItems = [
            URLQueryItem(name: "secret", value: secret), URLQueryItem(name: "issuer", value: issuer),
            URLQueryItem(name: "algorithm", value: "SHA1"), URLQueryItem(name: "digits", value: "6"),
            URLQueryItem(name: "period", value: "30"),
        ]
        return components.string ?? "otpauth://totp/\(issuer):\(account)?secret=\(secret)&issuer=\(issuer)"
    }
}
