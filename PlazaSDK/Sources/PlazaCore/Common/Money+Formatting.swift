import Foundation

extension Money {
    /// The amount as a reader of `locale` writes it, with the currency's symbol and grouping:
    /// `$100,060.75` in `en_US`, `100.060,75 €` in `de_DE`. `signed` puts a `+` before amounts above zero.
    public func formatted(locale: Locale, signed: Bool = false) -> String {
        let digits = Money.minorUnitDigits(currency)
        let value = Decimal(
            sign: amount < 0 ? .minus : .plus,
            exponent: -digits,
            significand: Decimal(amount.magnitude)
        )
        var style = Decimal.FormatStyle.Currency(code: currency, locale: locale)
        if signed { style = style.sign(strategy: .always()) }
        return value.formatted(style)
    }
}
