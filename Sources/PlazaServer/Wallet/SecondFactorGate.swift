import Foundation
import PlazaCore

/// The second factor money needs before it leaves (the second-factors domain's answer); none: nothing is asked.
protocol SecondFactorGate: Sendable {
    /// Returns when `action` may go ahead for `identity`; throws `second_factor_required` or `invalid_code` otherwise.
    func require(_ identity: Identity, for action: SecondFactorPolicy.Action, now: Date) async throws
}

extension WalletService {
    /// Asks the request's second factor for `action` (see `SecondFactorPolicy`).
    func requireSecondFactor(_ identity: Identity, _ action: SecondFactorPolicy.Action, now: Date) async throws {
        try await secondFactors?.require(identity, for: action, now: now)
    }
}
