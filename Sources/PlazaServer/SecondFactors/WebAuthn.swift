import Crypto
import Foundation
import PlazaCore

/// WebAuthn Level 2 as a relying party checks it (§7.1 registration, §7.2 authentication), for passkeys that sign with
/// ES256 and attest `none`. Challenges are the caller's to issue and spend; this checks the bytes.
struct WebAuthn: Sendable {
    /// Plaza as the relying party: the host its passkeys are bound to and the origins its pages are served from.
    struct RelyingParty: Sendable, Hashable {
        var id: String
        var name: String
        var origins: [String]

        /// `PLAZA_PUBLIC_URL`'s host and origin; without one, `localhost` on the configured port (browsers refuse an IP
        /// address as a relying party, so a local Plaza's passkeys work at `http://localhost:<port>`).
        init(publicURL: URL?, port: Int, name: String = "Plaza") {
            self.name = name
            if let publicURL, let host = publicURL.host, let scheme = publicURL.scheme {
                id = host.lowercased()
                let defaultPort = scheme == "https" ? 443 : 80
                origins = ["\(scheme)://\(id)" + (publicURL.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")]
            } else {
                id = "localhost"
                origins = ["http://localhost:\(port)"]
            }
        }

        init(id: String, name: String = "Plaza", origins: [String]) {
            (self.id, self.name, self.origins) = (id, name, origins)
        }
    }

    /// Why a credential or an assertion was refused (never shown to the user: all of them are `invalid_code`).
    struct Refusal: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `clientDataJSON`, as the browser wrote it.
    struct ClientData: Decodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
    }

    /// Authenticator data (§6.1): the relying party's hash, flags, the signature counter and, on registration, the
    /// new credential.
    struct AuthenticatorData {
        var rpIdHash: [UInt8]
        var flags: UInt8
        var signCount: UInt32
        var credentialId: [UInt8]?
        var credentialKey: CBOR?

        var userPresent: Bool { flags & 0x01 != 0 }
        var userVerified: Bool { flags & 0x04 != 0 }

        init(_ bytes: [UInt8]) throws {
            guard bytes.count >= 37 else { throw Refusal("authenticator data too short") }
            rpIdHash = Array(bytes[0..<32])
            flags = bytes[32]
            signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
            guard flags & 0x40 != 0 else { return }
            // Attested credential data: AAGUID (16), the id's length (2), the id, then its COSE key.
            guard bytes.count >= 55 else { throw Refusal("attested credential data too short") }
            let length = Int(bytes[53]) << 8 | Int(bytes[54])
            guard (1...1023).contains(length), bytes.count >= 55 + length else { throw Refusal("bad credential id") }
            credentialId = Array(bytes[55..<(55 + length)])
            do {
                credentialKey = try CBOR.decode(bytes[(55 + length)...]).0
            } catch { throw Refusal("bad credential key") }
        }
    }

    /// A credential registration proved: its id (base64url) and ES256 key, to store as a passkey.
    struct NewCredential: Sendable {
        var id: String
        var publicKey: P256.Signing.PublicKey
        var signCount: UInt32
        /// The challenge it answered, which the caller spends.
        var challenge: String
    }

    /// A proved assertion: the challenge it answered (the caller spends it) and the authenticator's counter.
    struct Assertion: Sendable {
        var challenge: String
        var signCount: UInt32
    }

    let relyingParty: RelyingParty

    /// Checks a `navigator.credentials.create()` answer (§7.1): the client data, the relying party's hash, user
    /// presence, an ES256 key, attestation `none`.
    func registration(clientDataJSON: [UInt8], attestationObject: [UInt8]) throws -> NewCredential {
        let client = try clientData(clientDataJSON, type: "webauthn.create")
        let object: CBOR
        do { object = try CBOR.decode(attestationObject) } catch { throw Refusal("malformed attestation object") }
        guard object["fmt"]?.string == "none", let raw = object["authData"]?.byteString else {
            throw Refusal("attestation is not none")
        }
        let data = try authenticatorData(raw)
        guard let id = data.credentialId, let key = data.credentialKey else { throw Refusal("no credential") }
        return NewCredential(
            id: Data(id).base64URLEncodedString(),
            publicKey: try Self.es256Key(key),
            signCount: data.signCount,
            challenge: client.challenge
        )
    }

    /// Checks a `navigator.credentials.get()` answer (§7.2) against the credential's key.
    func assertion(
        clientDataJSON: [UInt8],
        authenticatorData raw: [UInt8],
        signature: [UInt8],
        publicKey: P256.Signing.PublicKey
    ) throws -> Assertion {
        let client = try clientData(clientDataJSON, type: "webauthn.get")
        let data = try authenticatorData(raw)
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            publicKey.isValidSignature(signature, for: raw + SHA256.hash(data: clientDataJSON))
        else { throw Refusal("bad signature") }
        return Assertion(challenge: client.challenge, signCount: data.signCount)
    }

    private func clientData(_ json: [UInt8], type: String) throws -> ClientData {
        guard let client = try? JSONDecoder().decode(ClientData.self, from: Data(json)) else {
            throw Refusal("malformed client data")
        }
        guard client.type == type else { throw Refusal("client data of type \(client.type)") }
        guard relyingParty.origins.contains(client.origin), client.crossOrigin != true else {
            throw Refusal("origin \(client.origin)")
        }
        return client
    }

    private func authenticatorData(_ raw: [UInt8]) throws -> AuthenticatorData {
        let data = try AuthenticatorData(raw)
        guard data.rpIdHash == Array(SHA256.hash(data: Array(relyingParty.id.utf8))) else {
            throw Refusal("another relying party")
        }
        guard data.userPresent else { throw Refusal("no user presence") }
        return data
    }

    /// A COSE_Key (RFC 9053) of type EC2 on P-256 for ES256: kty 2, alg -7, crv 1, x and y of 32 bytes.
    static func es256Key(_ key: CBOR) throws -> P256.Signing.PublicKey {
        guard key[.unsigned(1)]?.integer == 2, key[.unsigned(3)]?.integer == -7, key[.negative(0)]?.integer == 1,
            let x = key[.negative(1)]?.byteString, let y = key[.negative(2)]?.byteString, x.count == 32, y.count == 32,
            let publicKey = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
        else { throw Refusal("not an ES256 key") }
        return publicKey
    }
}
