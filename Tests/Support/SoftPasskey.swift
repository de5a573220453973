import Crypto
import Foundation
import PlazaCore

/// An authenticator in software, as a phone's passkey answers WebAuthn: attestation `none`, an ES256 key, a counter.
/// Every byte is written here from the specification, not with the server's parser.
public struct SoftPasskey {
    public let key = P256.Signing.PrivateKey()
    public let credentialId = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
    public var rpId: String
    public var origin: String

    /// A passkey for the site `rpId`, whose pages are served from `origin`.
    public init(rpId: String, origin: String) {
        (self.rpId, self.origin) = (rpId, origin)
    }

    public var id: String { Data(credentialId).base64URLEncodedString() }

    /// What `navigator.credentials.create()` answers for `challenge`; `origin` and `rpId` may be spoofed.
    public func registration(
        challenge: String,
        origin: String? = nil,
        rpId: String? = nil,
        counter: UInt32 = 0,
        name: String? = nil
    ) -> PasskeyRegistration {
        let client = Self.clientData("webauthn.create", challenge: challenge, origin: origin ?? self.origin)
        let point = key.publicKey.x963Representation.dropFirst()
        // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}.
        let cose: [UInt8] =
            [0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21] + Self.bytes(Array(point.prefix(32))) + [0x22]
            + Self.bytes(Array(point.suffix(32)))
        let data =
            Self.authenticatorData(rpId ?? self.rpId, flags: 0x45, counter: counter) + [UInt8](repeating: 0, count: 16)
            + [UInt8(credentialId.count >> 8), UInt8(credentialId.count & 0xff)] + credentialId + cose
        // {"fmt": "none", "attStmt": {}, "authData": data}
        let attestation =
            [0xa3] + Self.text("fmt") + Self.text("none") + Self.text("attStmt") + [0xa0] + Self.text("authData")
            + Self.bytes(data)
        return PasskeyRegistration(
            name: name,
            credential: .init(
                id: id,
                response: .init(
                    clientDataJSON: Data(client).base64URLEncodedString(),
                    attestationObject: Data(attestation).base64URLEncodedString()
                )
            )
        )
    }

    /// What `navigator.credentials.get()` answers for `challenge`, signed with `signer` (this passkey's key).
    public func assertion(
        challenge: String,
        counter: UInt32 = 0,
        origin: String? = nil,
        rpId: String? = nil,
        signer: P256.Signing.PrivateKey? = nil
    ) throws -> PasskeyAssertion {
        let client = Self.clientData("webauthn.get", challenge: challenge, origin: origin ?? self.origin)
        let data = Self.authenticatorData(rpId ?? self.rpId, flags: 0x05, counter: counter)
        let signature = try (signer ?? key).signature(for: data + Array(SHA256.hash(data: client)))
        return PasskeyAssertion(
            id: id,
            response: .init(
                clientDataJSON: Data(client).base64URLEncodedString(),
                authenticatorData: Data(data).base64URLEncodedString(),
                signature: signature.derRepresentation.base64URLEncodedString()
            )
        )
    }

    static func clientData(_ type: String, challenge: String, origin: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    static func authenticatorData(_ rpId: String, flags: UInt8, counter: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpId.utf8))) + [flags]
            + (0..<4).map { UInt8(truncatingIfNeeded: counter >> (24 - 8 * $0)) }
    }

    /// A CBOR byte string (major type 2).
    static func bytes(_ value: [UInt8]) -> [UInt8] {
        switch value.count {
        case ..<24: [0x40 | UInt8(value.count)] + value
        case ..<256: [0x58, UInt8(value.count)] + value
        default: [0x59, UInt8(value.count >> 8), UInt8(value.count & 0xff)] + value
        }
    }

    /// A short CBOR text string (major type 3).
    static func text(_ value: String) -> [UInt8] { [0x60 | UInt8(value.utf8.count)] + Array(value.utf8) }
}
