import Foundation
import PlazaCore
import SQLKit

/// Second factors (issue 40): authenticator apps and recovery codes, and the check money makes before it leaves.
struct SecondFactorService: Sendable {
    let database: PlazaDatabase
    let events: EventBus
    let limiter: RateLimiter
    let secrets: Secrets
    let configuration: SecondFactorConfiguration
    /// Where passkeys are bound: Plaza's public host and origin.
    let relyingParty: WebAuthn.RelyingParty
    let store = SecondFactorStore()

    /// Wrong codes a user may send in the rate window before waiting.
    var attemptRule: RateLimiter.Rule { .init(bucket: "second-factor", limit: 10) }

    /// The account's confirmed factors and its unused recovery codes.
    func list(_ identity: Identity) async throws -> SecondFactorList {
        let user = identity.user.id
        return SecondFactorList(
            items: try await store.list(user: user, on: database.sql).map(\.factor),
            recoveryCodesLeft: try await store.recoveryCodesLeft(user: user, on: database.sql)
        )
    }

    /// A new authenticator app, unconfirmed until `confirmTOTP`: its secret and `otpauth://` address, shown this once.
    /// An account that has a factor already confirms with it first.
    func startTOTP(_ identity: Identity, now: Date = Date()) async throws -> TOTPSetup {
        try await require(identity, for: .securityChange, now: now)
        let user = identity.user.id
        guard try await store.list(user: user, on: database.sql).count < SecondFactorStore.maximumPerUser else {
            throw Self.tooMany
        }
        var bytes = Data(count: 20)
        for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max) }
        let secret = Base32.encode(bytes)
        let factor = SecondFactor(id: UUID(), kind: .totp, name: "Authenticator app", createdAt: now)
        let sealed = try secrets.seal(bytes)
        try await database.transaction { db in
            try await store.deleteUnconfirmed(user: user, on: db)
            try await store.insert(factor, secret: sealed, confirmed: false, user: user, on: db)
        }
        return TOTPSetup(
            id: factor.id,
            secret: secret,
            otpauthUrl: TOTP.url(secret: secret, account: identity.user.username)
        )
    }

    /// The app set up but not confirmed yet, to show its secret again until it is (nil when none waits).
    func pendingTOTP(_ identity: Identity) async throws -> TOTPSetup? {
        let factors = try await store.list(user: identity.user.id, confirmedOnly: false, on: database.sql)
        guard let pending = factors.last(where: { !$0.confirmed && $0.factor.kind == .totp }),
            let secret = secrets.open(pending.secret)
        else { return nil }
        let text = Base32.encode(secret)
        return TOTPSetup(
            id: pending.factor.id,
            secret: text,
            otpauthUrl: TOTP.url(secret: text, account: identity.user.username)
        )
    }

    /// Confirms the app set up last with a code it shows. The first factor brings 10 recovery codes; an account that
    /// holds unused ones keeps them (`replaced` false, no codes: new ones come from `newRecoveryCodes`).
    func confirmTOTP(
        _ identity: Identity,
        _ request: TOTPConfirmRequest,
        now: Date = Date()
    ) async throws
        -> RecoveryCodes
    {
        let user = identity.user.id
        try await limiter.check(attemptRule, user.uuidString, now: now)
        let code = Self.digits(request.code)
        guard
            let pending = try await store.list(user: user, confirmedOnly: false, on: database.sql)
                .last(where: { !$0.confirmed && $0.factor.kind == .totp })
        else {
            throw PlazaError.conflict(field: "code", phrase("Set up an authenticator app first."))
        }
        guard let secret = secrets.open(pending.secret), let step = TOTP.matchingStep(code, secret: secret, at: now)
        else {
            try await limiter.record(attemptRule, user.uuidString, now: now)
            throw PlazaError.invalidSecondFactor
        }
        return try await events.transaction { db in
            guard try await store.confirm(pending.factor.id, user: user, step: step, now: now, on: db) else {
                throw PlazaError.invalidSecondFactor
            }
            let issued = try await firstRecoveryCodes(user: user, now: now, on: db)
            let notice = Self.notice(
                user,
                phrase("A second factor was added to your account."),
                phrase(
                    "An authenticator app. "
                        + "If this was not you, change your password and look at Account → Security."
                )
            )
            return (RecoveryCodes(recoveryCodes: issued, replaced: false), [notice])
        }
    }

    /// 10 recovery codes for an account that holds no unused ones (its first factor), inside the transaction that
    /// adds the factor; none for one that keeps its set.
    func firstRecoveryCodes(user: UUID, now: Date, on db: any SQLDatabase) async throws -> [String] {
        guard try await store.recoveryCodesLeft(user: user, on: db) == 0 else { return [] }
        let codes = (0..<10).map { _ in Self.recoveryCode() }
        let hashes = codes.map { recoveryHash($0, user: user) }
        try await store.replaceRecoveryCodes(user: user, hashes: hashes, now: now, on: db)
        return codes
    }

    /// 10 new recovery codes; the old ones stop working.
    func newRecoveryCodes(_ identity: Identity, now: Date = Date()) async throws -> RecoveryCodes {
        let user = identity.user.id
        guard !(try await store.list(user: user, on: database.sql).isEmpty) else {
            throw PlazaError.conflict(
                field: nil,
                phrase("Set up an authenticator app first: recovery codes stand in for it.")
            )
        }
        try await require(identity, for: .securityChange, now: now)
        let codes = (0..<10).map { _ in Self.recoveryCode() }
        return try await events.transaction { db in
            try await store.replaceRecoveryCodes(
                user: user,
                hashes: codes.map { recoveryHash($0, user: user) },
                now: now,
                on: db
            )
            let notice = Self.notice(
                user,
                phrase("New recovery codes replaced your old ones."),
                phrase("If this was not you, change your password and look at Account → Security.")
            )
            return (RecoveryCodes(recoveryCodes: codes, replaced: true), [notice])
        }
    }

    /// Removes a factor (with a second factor first); with the last one go the recovery codes.
    func delete(_ identity: Identity, id: UUID, now: Date = Date()) async throws {
        let user = identity.user.id
        guard try await store.list(user: user, on: database.sql).contains(where: { $0.factor.id == id }) else {
            throw PlazaError.notFound("second factor")
        }
        try await require(identity, for: .securityChange, now: now)
        try await events.transaction { db in
            guard try await store.delete(id, user: user, on: db) else { throw PlazaError.notFound("second factor") }
            if try await store.list(user: user, on: db).isEmpty {
                try await store.deleteRecoveryCodes(user: user, on: db)
            }
            return (
                (),
                [
                    Self.notice(
                        user,
                        phrase("A second factor was removed from your account."),
                        phrase("If this was not you, change your password and look at Account → Security.")
                    )
                ]
            )
        }
    }

    func recoveryHash(_ code: String, user: UUID) -> String {
        secrets.hash("recovery:\(user.uuidString):\(Self.normalizedRecoveryCode(code))")
    }

    /// `ABCDE-FGHJK`: ten characters people copy without confusion.
    static func recoveryCode() -> String {
        let code = Secrets.readableCode(length: 10)
        return "\(code.prefix(5))-\(code.suffix(5))"
    }

    static func normalizedRecoveryCode(_ code: String) -> String {
        code.uppercased().filter { $0.isLetter || $0.isNumber }
    }

    /// The digits of a typed code ("123 456" is 123456).
    static func digits(_ code: String) -> String {
        code.filter { $0 != " " && $0 != "-" }
    }

    /// A change to the account's second factors, kept in its inbox and read in the reader's language.
    static func notice(_ user: UUID, _ title: String, _ note: String, _ values: [String: String] = [:]) -> FeedMessage {
        .inboxNotice(
            user: user,
            notice: InboxNotice(
                kind: .security,
                link: "/account#security",
                Wording(title: title, body: note, values: values)
            )
        )
    }
}
