import Foundation
import PlazaCore
import Testing

@Suite struct MoneyTests {
    @Test func formatsMinorUnits() {
        #expect(Money(amount: 1234, currency: "USD").description == "12.34 USD")
        #expect(Money(amount: -5, currency: "EUR").description == "-0.05 EUR")
        #expect(Money(amount: 500, currency: "JPY").description == "500 JPY")
    }

    @Test func addsOnlyTheSameCurrencyAndNeverOverflows() {
        #expect(
            Money(amount: 1, currency: "USD").adding(Money(amount: 2, currency: "USD"))
                == Money(amount: 3, currency: "USD")
        )
        #expect(Money(amount: 1, currency: "USD").adding(Money(amount: 2, currency: "EUR")) == nil)
        #expect(Money(amount: .max, currency: "USD").adding(Money(amount: 1, currency: "USD")) == nil)
    }

    @Test func recognizesCurrencyCodes() {
        #expect(Money.isCurrencyCode("USD"))
        #expect(!Money.isCurrencyCode("usd"))
        #expect(!Money.isCurrencyCode("US"))
    }
}

@Suite struct WalletRulesTests {
    @Test func amountsAreReadAsPeopleTypeThem() {
        #expect(WalletRules.parseAmount("12.5", currency: "USD") == 1_250)
        #expect(WalletRules.parseAmount("12,05", currency: "USD") == 1_205)
        #expect(WalletRules.parseAmount(" 7 ", currency: "USD") == 700)
        #expect(WalletRules.parseAmount("1500", currency: "JPY") == 1_500)
        #expect(WalletRules.parseAmount("$1,234.56", currency: "USD") == 123_456)
        #expect(WalletRules.parseAmount("1.234,56 €", currency: "EUR") == 123_456)
        #expect(WalletRules.parseAmount("$7.25", currency: "USD") == 725)
        for bad in ["", "-1", "1.234", "1e3", "abc", ".5", "12.", "9999999999"] {
            #expect(WalletRules.parseAmount(bad, currency: "USD") == nil, "\(bad)")
        }
        #expect(WalletRules.parseAmount("1.5", currency: "JPY") == nil)
    }

    @Test func cardExpiriesAreReadAsPeopleTypeThem() {
        for text in ["1229", "12/29", "12 / 2029", "12-2029", "122029"] {
            #expect(WalletRules.parseExpiry(text) == (12, 2029), "\(text)")
        }
        #expect(WalletRules.parseExpiry("1/29") == (1, 2029))
        for bad in ["", "12", "12/2", "123/29", "abc"] { #expect(WalletRules.parseExpiry(bad).month == 0, "\(bad)") }
    }

    @Test func cardsPassLuhnAndExpire() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11
        #expect(
            WalletRules.cardProblems(
                CardDetails(number: "4242 4242 4242 4242", expMonth: 11, expYear: 2026, cvc: "123"),
                now: now
            ).isEmpty
        )
        let fields = WalletRules.cardProblems(
            CardDetails(number: "4242 4242 4242 4243", expMonth: 10, expYear: 2026, cvc: "1"),
            now: now
        ).map(
            \.field
        )
        #expect(fields == ["card.number", "card.expYear", "card.cvc"])
        #expect(WalletRules.cardBrand("5555555555554444") == "mastercard")
    }

    @Test func itemsAndTheTipMustAddUpToTheAmount() {
        let items = [ChargeItem(description: "Tea", quantity: 2, unitAmount: 150)]
        #expect(WalletRules.chargeTotals(items: items, amount: 300, tip: 0).problems.isEmpty)
        #expect(WalletRules.chargeTotals(items: items, amount: 301, tip: 0).problems.map(\.field) == ["amount"])
        // Left out, the amount is the lines' sum plus the tip; the goods leave the tip out.
        let tipped = WalletRules.chargeTotals(items: items, amount: nil, tip: 45)
        #expect(tipped.goods == 300 && tipped.amount == 345 && tipped.problems.isEmpty)
        #expect(WalletRules.chargeTotals(items: items, amount: 300, tip: 45).problems.map(\.field) == ["amount"])
        #expect(WalletRules.chargeTotals(items: [], amount: nil, tip: 0).problems.map(\.field) == ["amount"])
        #expect(WalletRules.chargeTotals(items: [], amount: 500, tip: 501).problems.map(\.field) == ["tip"])
        #expect(WalletRules.chargeTotals(items: items, amount: nil, tip: -1).problems.map(\.field) == ["tip"])
        let typed = [ChargeLine(description: "", quantity: 0, unitAmount: -1)]
        #expect(WalletRules.lineProblems(typed).count == 3)
        var bare = ChargeLine(description: "Tea", quantity: 1, unitAmount: 150)
        (bare.description, bare.unitAmount) = (nil, nil)
        #expect(WalletRules.lineProblems([bare]).map(\.field) == ["items.0.description", "items.0.unitAmount"])
        var both = ChargeLine(itemId: UUID(), quantity: 2)
        both.unitAmount = 100
        #expect(WalletRules.lineProblems([both]).map(\.field) == ["items.0.itemId"])
        #expect(ReceiptTax.included(in: 1190, basisPoints: 1900) == 190)
        #expect(ReceiptTax.included(in: 1000, basisPoints: 700) == 65)
    }

    @Test func onlyPendingChargesEndAndOnlyApprovedOnesAreRefunded() {
        #expect(ChargeStatus.pending.canMove(to: .approved))
        #expect(!ChargeStatus.declined.canMove(to: .approved))
        #expect(!ChargeStatus.pending.canMove(to: .refunded))
        #expect(ChargeStatus.approved.canMove(to: .refunded))
    }
}

@Suite struct MoneyFormattingTests {
    @Test func writesTheReadersSymbolAndGrouping() {
        let money = Money(amount: 10_006_075, currency: "USD")
        #expect(money.formatted(locale: Locale(identifier: "en_US")) == "$100,060.75")
        #expect(
            Money(amount: 10_006_075, currency: "EUR").formatted(locale: Locale(identifier: "de_DE"))
                == "100.060,75\u{a0}€"
        )
        #expect(Money(amount: -725, currency: "USD").formatted(locale: Locale(identifier: "en_US")) == "-$7.25")
        #expect(
            Money(amount: 725, currency: "USD").formatted(locale: Locale(identifier: "en_US"), signed: true) == "+$7.25"
        )
        #expect(Money(amount: 1_500, currency: "JPY").formatted(locale: Locale(identifier: "ja_JP")).contains("1,500"))
    }
}
