import Foundation
import PlazaCore

/// Operator settings of second factors.
public struct SecondFactorConfiguration: Sendable {
    /// Payments of this amount or more ask for a second factor, in major units (`PLAZA_SECOND_FACTOR_AMOUNT`, default
    /// 100; `none`: payments never ask). Withdrawals and connecting a payout account always ask.
    public var policy = SecondFactorPolicy()
    /// Off: nothing is asked (tests of other domains whose journeys predate second factors).
    public var enforced = true
    public init() {}
}

extension SecondFactorService: SecondFactorGate {
    /// Lets `action` go ahead, or throws 403 `second_factor_required` naming the account's factors (`[]`: it has none,
    /// and money actions wait until it sets one up) or `invalid_code` for a wrong or used code.
    func require(_ identity: Identity, for action: SecondFactorPolicy.Action, now: Date = Date()) async throws {
        guard configuration.enforced, configuration.policy.asks(action) else { return }
        let user = identity.user.id
        let factors = try await store.list(user: user, on: database.sql)
        guard !factors.isEmpty else {
            if configuration.policy.needsFactorToPass(action) { throw PlazaError.secondFactorRequired([]) }
            return
        }
        let refs = factors.map { SecondFactorRef(id: $0.factor.id, kind: $0.factor.kind) }
        guard let answer = SecondFactorAnswer.current?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
            throw PlazaError.secondFactorRequired(refs)
        }
        try await limiter.check(attemptRule, user.uuidString, now: now)
        guard try await verify(answer, factors: factors, user: user, now: now) else {
            try await limiter.record(attemptRule, user.uuidString, now: now)
            throw PlazaError.invalidSecondFactor
        }
    }

    /// Whether `answer` is a current app code not used before, a passkey's proof, or an unused recovery code; using it
    /// up if so.
    private func verify(
        _ answer: String,
        factors: [SecondFactorStore.Record],
        user: UUID,
        now: Date
    ) async throws
        -> Bool
    {
        if answer.lowercased().hasPrefix("passkey ") { return try await verifyPasskey(answer, user: user, now: now) }
        let code = Self.digits(answer)
        if code.count == 6, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) {
            for factor in factors where factor.factor.kind == .totp {
                guard let secret = secrets.open(factor.secret),
                    let step = TOTP.matchingStep(code, secret: secret, at: now)
                else { continue }
                return try await store.use(factor.factor.id, step: step, now: now, on: database.sql)
            }
            return false
        }
        let hash = recoveryHash(answer, user: user)
        return try await store.useRecoveryCode(user: user, hash: hash, now: now, on: database.sql)
    }
}
