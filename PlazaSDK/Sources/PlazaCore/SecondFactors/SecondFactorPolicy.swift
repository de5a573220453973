import Foundation

/// When money may leave only with a second factor (issue 40): every withdrawal, connecting a payout account, and a
/// payment (transfer, charge approval, wallet-paid order) of `threshold` or more.
public struct SecondFactorPolicy: Sendable, Hashable {
    /// What the caller is about to do.
    public enum Action: Sendable, Hashable {
        case withdrawal
        case payoutAccount
        case payment(Money)
        /// Removing a factor or replacing recovery codes: asked only of accounts that have a factor.
        case securityChange
    }

    /// The smallest payment that asks, in major units (100 is $100.00); nil: payments never ask.
    public var threshold: Int64?

    public init(threshold: Int64? = 100) { self.threshold = threshold }

    /// Whether `action` needs a second factor.
    public func asks(_ action: Action) -> Bool {
        switch action {
        case .withdrawal, .payoutAccount, .securityChange: return true
        case .payment(let money):
            guard let threshold else { return false }
            var minor = threshold
            for _ in 0..<Money.minorUnitDigits(money.currency) {
                let (next, overflow) = minor.multipliedReportingOverflow(by: 10)
                if overflow { return false }
                minor = next
            }
            return money.amount >= minor
        }
    }

    /// Whether an account without any factor is refused (`factors: []`) rather than let through.
    public func needsFactorToPass(_ action: Action) -> Bool {
        if case .securityChange = action { return false }
        return true
    }
}
