import Foundation

/// The bounds on what a request may name and what Plaza may compute (issue 36): every amount of money at most
/// 100,000,000 minor units (a million of the major unit), a price per card at most 1,000,000, an end at most five
/// years ahead. Far from `Int64`'s range, so no sum or product of bounded values can trap; totals are still computed
/// with checked arithmetic, since stored prices may predate a bound.
public enum AmountBounds {
    /// The most any amount of money may be, in minor units: the contract's `Amount`.
    public static let maximum: Int64 = 100_000_000
    /// The most one card may cost (a paper tier's `unitAmount`, its `sampleAmount`).
    public static let perCard: Int64 = 1_000_000
    /// How far ahead a campaign or a program may end.
    public static let longestEnd: TimeInterval = 5 * 365 * 86_400 + 86_400

    /// The field error for `amount` above `maximum` (marked so that the problem is `amount_too_large`), or nil.
    public static func problem(_ amount: Int64, field: String, maximum: Int64 = maximum) -> FieldError? {
        amount > maximum ? tooLarge(field: field, maximum: maximum) : nil
    }

    /// `field` passes `maximum` (minor units).
    public static func tooLarge(field: String, maximum: Int64 = maximum) -> FieldError {
        FieldError(
            field: field,
            message: "Use at most \(majorUnits(maximum)) (\(maximum) minor units).",
            aboveBound: true
        )
    }

    /// "1,000,000.00" for 100,000,000 minor units (two decimals, as for most currencies; the minor units follow).
    static func majorUnits(_ minor: Int64) -> String {
        var digits = String(minor / 100)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        let cents = minor % 100
        return digits + grouped + "." + (cents < 10 ? "0" : "") + String(cents)
    }

    /// `a × b`, or nil when it overflows or passes `maximum`.
    public static func product(_ a: Int64, _ b: Int64, maximum: Int64 = maximum) -> Int64? {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow || result > maximum ? nil : result
    }

    /// The sum of `parts`, or nil when it overflows or passes `maximum`.
    public static func sum(_ parts: [Int64], maximum: Int64 = maximum) -> Int64? {
        var total: Int64 = 0
        for part in parts {
            let (result, overflow) = total.addingReportingOverflow(part)
            guard !overflow, result <= maximum else { return nil }
            total = result
        }
        return total
    }

    /// The field error for an end more than five years after `now` (a plain validation problem), or nil.
    public static func endProblem(_ end: Date?, field: String, now: Date) -> FieldError? {
        guard let end, end.timeIntervalSince(now) > longestEnd else { return nil }
        return FieldError(field: field, message: "End within five years.")
    }
}
