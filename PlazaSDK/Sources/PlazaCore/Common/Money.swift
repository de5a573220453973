/// An amount of money in minor units (cents) of an ISO 4217 currency.
///
/// Integer arithmetic only: no floating point ever touches money.
public struct Money: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Minor units, e.g. cents for USD.
    public var amount: Int64
    /// Three upper-case letters, e.g. `USD`.
    public var currency: String

    public init(amount: Int64, currency: String) {
        self.amount = amount
        self.currency = currency
    }

    /// Whether `code` has the form of an ISO 4217 code (three ASCII upper-case letters).
    public static func isCurrencyCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= 65 && $0 <= 90 }
    }

    /// Minor units per major unit; the currencies without decimals are listed, all others have two.
    public static func minorUnitDigits(_ currency: String) -> Int {
        ["JPY", "KRW", "VND", "CLP", "ISK", "XAF", "XOF", "UGX"].contains(currency) ? 0 : 2
    }

    /// The sum, or `nil` for mixed currencies or an overflow.
    public func adding(_ other: Money) -> Money? {
        guard currency == other.currency else { return nil }
        let (sum, overflow) = amount.addingReportingOverflow(other.amount)
        return overflow ? nil : Money(amount: sum, currency: currency)
    }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        lhs.currency == rhs.currency ? lhs.amount < rhs.amount : lhs.currency < rhs.currency
    }

    /// `12.34 USD`: the amount in major units with the currency's digits.
    public var description: String {
        let digits = Money.minorUnitDigits(currency)
        guard digits > 0 else { return "\(amount) \(currency)" }
        let sign = amount < 0 ? "-" : ""
        let major = amount.magnitude / 100
        let minor = amount.magnitude % 100
        return "\(sign)\(major).\(minor < 10 ? "0" : "")\(minor) \(currency)"
    }
}
