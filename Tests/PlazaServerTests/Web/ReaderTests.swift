import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

@Suite struct ReaderTests {
    let newYork = TimeZone(identifier: "America/New_York")!

    @Test func picksTheFirstKnownLanguageOfTheBrowser() {
        #expect(Reader.locale(acceptLanguage: "de-DE,de;q=0.9,en;q=0.8").identifier == "de_DE")
        #expect(Reader.locale(acceptLanguage: "fr;q=0.9").region?.identifier == "FR")
        #expect(Reader.locale(acceptLanguage: "zz-ZZ, en-GB;q=0.5").identifier == "en_GB")
        #expect(Reader.locale(acceptLanguage: nil).identifier == "en_US")
        #expect(Reader.locale(acceptLanguage: "*").identifier == "en_US")
    }

    @Test func writesDatesInTheReadersZoneWithoutSeconds() throws {
        let reader = Reader(locale: Locale(identifier: "en_US"), timeZone: newYork)
        // 2026-11-24 22:48 UTC is 5:48 PM in New York, the same day.
        let now = try #require(RFC3339.parse("2026-11-24T23:30:00Z"))
        let moment = try #require(RFC3339.parse("2026-11-24T22:48:00Z"))
        #expect(
            reader.when(moment, now: now) == "Today 5:48\u{202f}PM" || reader.when(moment, now: now) == "Today 5:48 PM"
        )
        // Past midnight in UTC but not yet in New York: still today there.
        let late = try #require(RFC3339.parse("2026-11-25T03:00:00Z"))
        #expect(reader.day(late, now: now) == "Today")
        #expect(reader.day(try #require(RFC3339.parse("2026-11-23T15:00:00Z")), now: now) == "Yesterday")
        #expect(reader.day(try #require(RFC3339.parse("2026-03-02T15:00:00Z")), now: now) == "Mar 2")
        #expect(reader.day(try #require(RFC3339.parse("2025-03-02T15:00:00Z")), now: now) == "Mar 2, 2025")
        let british = Reader(locale: Locale(identifier: "en_GB"), timeZone: .gmt)
        #expect(british.full(moment).hasPrefix("24 Nov 2026, 22:48"))
    }

    @Test func countsWithTheRightWord() {
        let reader = Reader.standard
        #expect(reader.count(1, "report", "reports") == "1 report")
        #expect(reader.count(7, "week", "weeks") == "7 weeks")
        #expect(reader.count(1_204, "person", "people") == "1,204 people")
        #expect(reader.count(0, "charge", "charges") == "0 charges")
    }

    @Test func distancesAreRoundedAndInTheReadersDigits() {
        #expect(Reader.standard.distance(37) == "40 m")
        #expect(Reader.standard.distance(1_234) == "1.2 km")
        #expect(Reader(locale: Locale(identifier: "de_DE"), timeZone: .gmt).distance(1_234) == "1,2 km")
    }
}
