import PlazaCore
import Testing

@Suite struct MoneyTests {
    @Test func formatsMinorUnits() {
        #expect(Money(amount: 1234, currency: "USD").description == "12.34 USD")
        #expect(Money(amount: -5, currency: "EUR").description == "-0.05 EUR")
        #expect(Money(amount: 500, currency: "JPY").description == "500 JPY")
    }

    @Test func addsOnlyTheSameCurrencyAndNeverOverflows() {
        #expect(Money(amount: 1, currency: "USD").adding(Money(amount: 2, currency: "USD")) == Money(amount: 3, currency: "USD"))
        #expect(Money(amount: 1, currency: "USD").adding(Money(amount: 2, currency: "EUR")) == nil)
        #expect(Money(amount: .max, currency: "USD").adding(Money(amount: 1, currency: "USD")) == nil)
    }

    @Test func recognizesCurrencyCodes() {
        #expect(Money.isCurrencyCode("USD"))
        #expect(!Money.isCurrencyCode("usd"))
        #expect(!Money.isCurrencyCode("US"))
    }
}
