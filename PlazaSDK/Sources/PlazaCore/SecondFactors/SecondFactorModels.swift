import Foundation

/// What a second factor is: an authenticator app's codes (RFC 6238) or a passkey (WebAuthn).
public enum SecondFactorKind: String, Codable, Sendable, CaseIterable {
    case totp
    case passkey
}

/// One confirmed second factor of the account (`GET /v1/me/second-factors`).
public struct SecondFactor: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var kind: SecondFactorKind
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(id: UUID, kind: SecondFactorKind, name: String, createdAt: Date, lastUsedAt: Date? = nil) {
        (self.id, self.kind, self.name, self.createdAt, self.lastUsedAt) = (id, kind, name, createdAt, lastUsedAt)
    }
}

/// The account's second factors and how many unused recovery codes it holds.
public struct SecondFactorList: Codable, Sendable, Hashable {
    public var items: [SecondFactor]
    public var recoveryCodesLeft: Int

    public init(items: [SecondFactor], recoveryCodesLeft: Int) {
        (self.items, self.recoveryCodesLeft) = (items, recoveryCodesLeft)
    }
}

/// A factor a `second_factor_required` problem names: the kinds the caller may answer with.
public struct SecondFactorRef: Codable, Sendable, Hashable {
    public var id: UUID
    public var kind: SecondFactorKind

    public init(id: UUID, kind: SecondFactorKind) {
        (self.id, self.kind) = (id, kind)
    }
}

/// A new authenticator app, not yet confirmed (`POST /v1/me/second-factors/totp`): the secret is shown this once.
public struct TOTPSetup: Codable, Sendable, Hashable {
    public var id: UUID
    /// The shared secret in base32 (RFC 4648, no padding), to type into an app that cannot scan the QR code.
    public var secret: String
    /// `otpauth://totp/…`: what the QR code holds (SHA-1, 6 digits, 30 seconds).
    public var otpauthUrl: String

    public init(id: UUID, secret: String, otpauthUrl: String) {
        (self.id, self.secret, self.otpauthUrl) = (id, secret, otpauthUrl)
    }
}

/// The code an authenticator app shows, to confirm it (`POST /v1/me/second-factors/totp/confirm`).
public struct TOTPConfirmRequest: Codable, Sendable, Hashable {
    public var code: String

    public init(code: String) { self.code = code }
}

/// Recovery codes, shown once: each replaces a second factor one time.
public struct RecoveryCodes: Codable, Sendable, Hashable {
    /// The 10 new codes; empty when the account kept the set it had (`replaced` false).
    public var recoveryCodes: [String]
    /// Whether a set the account had before stopped working (only `POST /v1/me/second-factors/recovery-codes` does).
    public var replaced: Bool

    public init(recoveryCodes: [String], replaced: Bool) {
        (self.recoveryCodes, self.replaced) = (recoveryCodes, replaced)
    }
}
