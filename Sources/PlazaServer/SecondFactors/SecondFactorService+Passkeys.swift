import Crypto
import Foundation
import PlazaCore
import SQLKit

/// Passkeys as second factors (WebAuthn, ES256, attestation `none`): made from options Plaza gives, and proving a
/// payment by signing a challenge Plaza gave, each challenge spent once.
extension SecondFactorService {
    /// How long a challenge may wait for the authenticator.
    static let challengeLifetime: TimeInterval = 300
    /// Challenges a user may ask for in the rate window.
    var challengeRule: RateLimiter.Rule { .init(bucket: "passkey-challenge", limit: 60) }

    var webAuthn: WebAuthn { WebAuthn(relyingParty: relyingParty) }

    /// Options to make a passkey; an account that has a factor already answers with one first.
    func passkeyOptions(_ identity: Identity, now: Date = Date()) async throws -> PasskeyRegistrationOptions {
        try await require(identity, for: .securityChange, now: now)
        let user = identity.user.id
        try await limiter.hit(challengeRule, user.uuidString, now: now)
        let factors = try await store.list(user: user, on: database.sql)
        guard factors.count < SecondFactorStore.maximumPerUser else { throw Self.tooMany }
        let challenge = try await newChallenge(user: user, purpose: .register, now: now)
        return PasskeyRegistrationOptions(
            challenge: challenge,
            rp: .init(id: relyingParty.id, name: relyingParty.name),
            user: .init(
                id: withUnsafeBytes(of: user.uuid) { Data($0) }.base64URLEncodedString(),
                name: identity.user.username,
                displayName: identity.user.displayName
            ),
            pubKeyCredParams: [.init(alg: -7)],
            timeout: Int(Self.challengeLifetime * 1000),
            attestation: "none",
            excludeCredentials: try await store.passkeys(user: user, on: database.sql).map {
                .init(id: $0.key.credentialId)
            },
            authenticatorSelection: .init(residentKey: "preferred", userVerification: "preferred")
        )
    }

    /// Keeps the passkey the authenticator made from `passkeyOptions`; the account's first factor brings 10
    /// recovery codes. A credential that does not check out is 403 `invalid_code`.
    func addPasskey(
        _ identity: Identity,
        _ request: PasskeyRegistration,
        now: Date = Date()
    ) async throws -> PasskeyAdded {
        let user = identity.user.id
        let name = (request.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= 60 else { throw PlazaError.validation(field: "name", phrase("Use at most 60 characters.")) }
        guard let clientData = Data(base64URL: request.credential.response.clientDataJSON),
            let attestation = Data(base64URL: request.credential.response.attestationObject)
        else {
            throw PlazaError.validation(
                field: "credential",
                phrase("Send the credential as the browser made it (base64url).")
            )
        }
        try await limiter.check(attemptRule, user.uuidString, now: now)
        let credential: WebAuthn.NewCredential
        do {
            credential = try webAuthn.registration(
                clientDataJSON: Array(clientData),
                attestationObject: Array(attestation)
            )
        } catch is WebAuthn.Refusal {
            try await limiter.record(attemptRule, user.uuidString, now: now)
            throw PlazaError.invalidSecondFactor
        }
        if try await store.passkeys(user: user, on: database.sql).contains(where: {
            $0.key.credentialId == credential.id
        }) {
            throw PlazaError.conflict(field: "credential", phrase("This passkey is on your account already."))
        }
        let key = SecondFactorStore.PasskeyKey(
            credentialId: credential.id,
            publicKey: credential.publicKey.x963Representation.base64URLEncodedString()
        )
        let factor = SecondFactor(id: UUID(), kind: .passkey, name: name.isEmpty ? "Passkey" : name, createdAt: now)
        return try await events.transaction { db in
            guard try await store.spendChallenge(credential.challenge, user: user, purpose: .register, now: now, on: db)
            else { throw PlazaError.invalidSecondFactor }
            guard try await store.list(user: user, on: db).count < SecondFactorStore.maximumPerUser else {
                throw Self.tooMany
            }
            let secret = String(decoding: try JSONEncoder().encode(key), as: UTF8.self)
            try await store.insert(factor, secret: secret, confirmed: true, user: user, on: db)
            _ = try await store.advanceCounter(factor.id, to: Int64(credential.signCount), now: now, on: db)
            let codes = try await firstRecoveryCodes(user: user, now: now, on: db)
            let notice = Self.notice(
                user,
                phrase("A second factor was added to your account."),
                phrase("A passkey: {name}. If this was not you, change your password and look at Account → Security."),
                ["name": factor.name]
            )
            return (PasskeyAdded(factor: factor, recoveryCodes: codes), [notice])
        }
    }

    /// A challenge for the account's passkeys to sign, answering `second_factor_required` with
    /// `Plaza-Second-Factor: passkey …`. 409 for an account without a passkey.
    func passkeyChallenge(_ identity: Identity, now: Date = Date()) async throws -> PasskeyRequestOptions {
        let user = identity.user.id
        let passkeys = try await store.passkeys(user: user, on: database.sql)
        guard !passkeys.isEmpty else {
            throw PlazaError.conflict(
                field: nil,
                phrase("You have no passkey: answer with your authenticator app's code.")
            )
        }
        try await limiter.hit(challengeRule, user.uuidString, now: now)
        return PasskeyRequestOptions(
            challenge: try await newChallenge(user: user, purpose: .assert, now: now),
            rpId: relyingParty.id,
            allowCredentials: passkeys.map { .init(id: $0.key.credentialId) },
            userVerification: "preferred",
            timeout: Int(Self.challengeLifetime * 1000)
        )
    }

    /// Whether `answer` is a passkey's valid proof over a challenge given to `user` and not spent; spending it, and
    /// moving the passkey's counter.
    func verifyPasskey(_ answer: String, user: UUID, now: Date) async throws -> Bool {
        guard let assertion = PasskeyAssertion(answer: answer),
            let passkey = try await store.passkeys(user: user, on: database.sql)
                .first(where: { $0.key.credentialId == assertion.id }),
            let key = Data(base64URL: passkey.key.publicKey),
            let publicKey = try? P256.Signing.PublicKey(x963Representation: key),
            let clientData = Data(base64URL: assertion.response.clientDataJSON),
            let authenticatorData = Data(base64URL: assertion.response.authenticatorData),
            let signature = Data(base64URL: assertion.response.signature),
            let proof = try? webAuthn.assertion(
                clientDataJSON: Array(clientData),
                authenticatorData: Array(authenticatorData),
                signature: Array(signature),
                publicKey: publicKey
            )
        else { return false }
        guard try await store.spendChallenge(proof.challenge, user: user, purpose: .assert, now: now, on: database.sql)
        else { return false }
        return try await store.advanceCounter(passkey.factor.id, to: Int64(proof.signCount), now: now, on: database.sql)
    }

    /// 32 random bytes, base64url, kept for `user` for five minutes.
    private func newChallenge(
        user: UUID,
        purpose: SecondFactorStore.ChallengePurpose,
        now: Date
    ) async throws
        -> String
    {
        let challenge = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncodedString()
        try await store.insertChallenge(
            challenge,
            user: user,
            purpose: purpose,
            expiresAt: now.addingTimeInterval(Self.challengeLifetime),
            now: now,
            on: database.sql
        )
        return challenge
    }

    static var tooMany: PlazaError {
        .conflict(
            field: nil,
            say(
                "You have {count} second factors; remove one first.",
                ["count": String(SecondFactorStore.maximumPerUser)]
            )
        )
    }
}
