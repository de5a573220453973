import Foundation

/// A credential descriptor of WebAuthn: a passkey by its id (base64url).
public struct PasskeyDescriptor: Codable, Sendable, Hashable {
    public var type: String
    public var id: String

    public init(id: String, type: String = "public-key") { (self.id, self.type) = (id, type) }
}

/// What `navigator.credentials.create()` (or `ASAuthorizationPlatformPublicKeyCredentialProvider`) needs to make a
/// passkey for Plaza: WebAuthn's `PublicKeyCredentialCreationOptionsJSON`, every binary value base64url.
public struct PasskeyRegistrationOptions: Codable, Sendable, Hashable {
    public struct RelyingParty: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        public init(id: String, name: String) { (self.id, self.name) = (id, name) }
    }

    public struct User: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        public var displayName: String
        public init(id: String, name: String, displayName: String) {
            (self.id, self.name, self.displayName) = (id, name, displayName)
        }
    }

    public struct Parameter: Codable, Sendable, Hashable {
        public var type: String
        public var alg: Int
        public init(type: String = "public-key", alg: Int) { (self.type, self.alg) = (type, alg) }
    }

    public struct Selection: Codable, Sendable, Hashable {
        public var residentKey: String
        public var userVerification: String
        public init(residentKey: String, userVerification: String) {
            (self.residentKey, self.userVerification) = (residentKey, userVerification)
        }
    }

    public var challenge: String
    public var rp: RelyingParty
    public var user: User
    /// ES256 (-7) only.
    public var pubKeyCredParams: [Parameter]
    /// Milliseconds.
    public var timeout: Int
    public var attestation: String
    /// The account's passkeys: an authenticator holding one makes no second.
    public var excludeCredentials: [PasskeyDescriptor]
    public var authenticatorSelection: Selection

    public init(
        challenge: String,
        rp: RelyingParty,
        user: User,
        pubKeyCredParams: [Parameter],
        timeout: Int,
        attestation: String,
        excludeCredentials: [PasskeyDescriptor],
        authenticatorSelection: Selection
    ) {
        (self.challenge, self.rp, self.user, self.pubKeyCredParams) = (challenge, rp, user, pubKeyCredParams)
        (self.timeout, self.attestation) = (timeout, attestation)
        (self.excludeCredentials, self.authenticatorSelection) = (excludeCredentials, authenticatorSelection)
    }
}

/// What `navigator.credentials.get()` needs to prove a payment with a passkey: `PublicKeyCredentialRequestOptionsJSON`.
public struct PasskeyRequestOptions: Codable, Sendable, Hashable {
    public var challenge: String
    public var rpId: String
    public var allowCredentials: [PasskeyDescriptor]
    public var userVerification: String
    /// Milliseconds.
    public var timeout: Int

    public init(
        challenge: String,
        rpId: String,
        allowCredentials: [PasskeyDescriptor],
        userVerification: String,
        timeout: Int
    ) {
        (self.challenge, self.rpId, self.allowCredentials) = (challenge, rpId, allowCredentials)
        (self.userVerification, self.timeout) = (userVerification, timeout)
    }
}

/// A new passkey as the browser or the phone made it (`RegistrationResponseJSON`), with a name to know it by.
public struct PasskeyRegistration: Codable, Sendable, Hashable {
    public struct Response: Codable, Sendable, Hashable {
        public var clientDataJSON: String
        public var attestationObject: String
        public var transports: [String]?
        public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
            (self.clientDataJSON, self.attestationObject, self.transports) = (
                clientDataJSON, attestationObject, transports
            )
        }
    }

    public struct Credential: Codable, Sendable, Hashable {
        public var id: String
        public var type: String
        public var response: Response
        public init(id: String, type: String = "public-key", response: Response) {
            (self.id, self.type, self.response) = (id, type, response)
        }
    }

    /// "MacBook", "Phone"… (default "Passkey").
    public var name: String?
    public var credential: Credential

    public init(name: String? = nil, credential: Credential) { (self.name, self.credential) = (name, credential) }
}

/// A passkey's proof (`AuthenticationResponseJSON`), sent as `Plaza-Second-Factor: passkey <base64url of this JSON>`.
public struct PasskeyAssertion: Codable, Sendable, Hashable {
    public struct Response: Codable, Sendable, Hashable {
        public var clientDataJSON: String
        public var authenticatorData: String
        public var signature: String
        public var userHandle: String?
        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
            (self.clientDataJSON, self.authenticatorData) = (clientDataJSON, authenticatorData)
            (self.signature, self.userHandle) = (signature, userHandle)
        }
    }

    public var id: String
    public var type: String
    public var response: Response

    public init(id: String, type: String = "public-key", response: Response) {
        (self.id, self.type, self.response) = (id, type, response)
    }

    /// The `Plaza-Second-Factor` value (and a page form's `secondFactor`) that answers with this proof.
    public var answer: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = (try? encoder.encode(self)) ?? Data()
        return "passkey " + json.base64URLEncodedString()
    }

    /// The proof in an answer made by `answer`; nil for a code or anything malformed.
    public init?(answer: String) {
        let parts = answer.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "passkey", let json = Data(base64URL: String(parts[1])),
            let assertion = try? JSONDecoder().decode(PasskeyAssertion.self, from: json)
        else { return nil }
        self = assertion
    }
}

/// A passkey added (`POST /v1/me/second-factors/passkeys`): the factor, and the recovery codes the account's first
/// factor brings (empty when it kept the ones it had), shown once.
public struct PasskeyAdded: Codable, Sendable, Hashable {
    public var factor: SecondFactor
    public var recoveryCodes: [String]

    public init(factor: SecondFactor, recoveryCodes: [String]) {
        (self.factor, self.recoveryCodes) = (factor, recoveryCodes)
    }
}
