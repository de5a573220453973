import Foundation
import PlazaCore

/// How much may come in from cards or go out to banks, per transaction, calendar day and calendar month (in the
/// operator's time zone), in major units of each currency (`PLAZA_LIMIT_TOP_UP="transaction=500,day=1000,month=5000"`).
/// Accounts younger than `PLAZA_NEW_ACCOUNT_DAYS` have their own, lower limits: a stolen card's favourite target
/// is a fresh account.
public struct FundingLimits: Sendable, Equatable {
    public var transaction: Int64
    public var day: Int64
    public var month: Int64

    public init(transaction: Int64, day: Int64, month: Int64) {
        self.transaction = transaction
        self.day = day
        self.month = month
    }

    /// `transaction=500, day=1000, month=5000` (any of them; the others stay as in `base`).
    static func parse(_ text: String, base: FundingLimits) -> FundingLimits? {
        var limits = base
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard pair.count == 2, let value = Int64(pair[1]), value > 0, value <= 1_000_000_000 else { return nil }
            switch pair[0] {
            case "transaction": limits.transaction = value
            case "day": limits.day = value
            case "month": limits.month = value
            default: return nil
            }
        }
        return limits
    }
}

/// The top-up and withdrawal limits of one Plaza.
public struct FundingLimitSet: Sendable {
    public var topUp = FundingLimits(transaction: 1_000, day: 2_000, month: 10_000)
    public var topUpNew = FundingLimits(transaction: 250, day: 500, month: 1_000)
    public var withdrawal = FundingLimits(transaction: 5_000, day: 5_000, month: 20_000)
    public var withdrawalNew = FundingLimits(transaction: 250, day: 500, month: 1_000)
    /// Accounts younger than this have the `New` limits.
    public var newAccountDays = 30

    public init() {}

    func limits(_ direction: FundingRecord.Direction, accountCreated: Date, now: Date) -> FundingLimits {
        let isNew = now.timeIntervalSince(accountCreated) < Double(newAccountDays) * 86_400
        return switch direction {
        case .topUp: isNew ? topUpNew : topUp
        case .withdrawal: isNew ? withdrawalNew : withdrawal
        }
    }

    mutating func read(_ value: (String) -> String?, fail: (String, String) -> Void) {
        func limits(_ key: String, _ target: inout FundingLimits) {
            guard let text = value(key) else { return }
            if let parsed = FundingLimits.parse(text, base: target) {
                target = parsed
            } else {
                fail(
                    key,
                    "must look like transaction=500,day=1000,month=5000 (whole amounts in major units), not '\(text)'"
                )
            }
        }
        limits("PLAZA_LIMIT_TOP_UP", &topUp)
        limits("PLAZA_LIMIT_TOP_UP_NEW", &topUpNew)
        limits("PLAZA_LIMIT_WITHDRAWAL", &withdrawal)
        limits("PLAZA_LIMIT_WITHDRAWAL_NEW", &withdrawalNew)
        if let text = value("PLAZA_NEW_ACCOUNT_DAYS") {
            if let days = Int(text), (0...3_650).contains(days) {
                newAccountDays = days
            } else {
                fail("PLAZA_NEW_ACCOUNT_DAYS", "must be a whole number of days from 0 to 3650, not '\(text)'")
            }
        }
    }
}
