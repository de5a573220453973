import Foundation
import PlazaCore
import Testing

/// A program's months: cut in the merchant's time zone, returning customers against earlier months, rates and days
/// only over shown counts.
@Suite struct LoyaltyAnalyticsRulesTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let people = (0..<8).map { _ in UUID() }

    func at(_ text: String) -> Date { RFC3339.parse(text)! }

    @Test func monthsAreCutInTheReadersZoneAndFewCustomersAreWithheld() {
        // 23:30 UTC on 31 October is already November in Berlin.
        let facts = LoyaltyAnalyticsRules.Facts(
            punches: people.prefix(5).map { ($0, at("2026-10-31T23:30:00Z")) } + [
                (people[0], at("2026-10-10T10:00:00Z"))
            ],
            cards: people.prefix(5).map { ($0, 1, at("2026-11-01T08:00:00Z"), at("2026-11-03T08:00:00Z")) },
            redemptions: people.prefix(2).map { ($0, at("2026-11-04T08:00:00Z")) }
        )
        let months = LoyaltyAnalyticsRules.months(facts, count: 3, now: at("2026-11-20T12:00:00Z"), zone: berlin)
        #expect(months.map(\.month) == ["2026-09", "2026-10", "2026-11"])
        #expect(months[1].punches == nil, "one customer in October: fewer than 5")
        let november = months[2]
        #expect(november.punches == 5 && november.newCards == 5 && november.completedCards == 5)
        #expect(november.returningCustomers == nil, "one returning customer is withheld too")
        #expect(
            november.redemptions == nil && november.redemptionRate == nil,
            "2 redemptions: neither the count nor the rate"
        )
        #expect(november.averageDaysToComplete == 2)
        let utc = LoyaltyAnalyticsRules.months(facts, count: 3, now: at("2026-11-20T12:00:00Z"), zone: .gmt)
        #expect(utc[1].punches == 6 && utc[2].punches == 0, "in UTC the same punches fall in October")
    }

    @Test func returningCustomersAndTheRedemptionRate() {
        let october = people.map { ($0, at("2026-10-05T10:00:00Z")) }
        let november = people.prefix(6).map { ($0, at("2026-11-05T10:00:00Z")) }
        let facts = LoyaltyAnalyticsRules.Facts(
            punches: october + november,
            cards: people.map { ($0, 1, at("2026-10-05T10:00:00Z"), at("2026-11-05T10:00:00Z")) },
            redemptions: people.prefix(6).map { ($0, at("2026-11-06T10:00:00Z")) }
        )
        let months = LoyaltyAnalyticsRules.months(facts, count: 2, now: at("2026-11-20T12:00:00Z"), zone: .gmt)
        #expect(months[0].returningCustomers == 0 && months[0].newCards == 8)
        #expect(months[1].returningCustomers == 6 && months[1].completedCards == 8 && months[1].redemptions == 6)
        #expect(months[1].redemptionRate == 0.75 && months[1].averageDaysToComplete == 31)
    }
}
