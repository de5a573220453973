import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import SQLKit
import Testing

@testable import PlazaServer

/// The meetup as the conversation page words it (issue 39's walk): the time field suggests the next whole hour, the
/// sentences read as English ("opens tomorrow at 2:00 PM", "waiting for Ana Sofia L.").
@Suite struct MeetupPagesTests {
    @Test(arguments: TestEngine.enabled)
    func theMeetupFormAndItsSentencesReadWell(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let market = try await ChatTests.market(client, services)
            let renamed = try await client.send(
                .patch,
                "/v1/me",
                json: ProfileUpdate(displayName: "Ana Sofia Lopez"),
                token: market.ana
            )
            #expect(renamed.status == .ok, "\(renamed.text)")
            let offer = try await DealTests.acceptedDeal(client, market, paid: false)
            let page = "/market/conversations/\(offer.conversationId.uuidString.lowercased())"
            let ben = try await ListingPagesTests.browser(client, "ben")

            // The time field suggests the next whole hour at least an hour away, never midnight.
            let before = Reader.standard.input(Reader.standard.nextWholeHour())
            let form = try await ben.get(page).text
            let after = Reader.standard.input(Reader.standard.nextWholeHour())
            #expect(
                form.contains(#"name="at" type="datetime-local" value="\#(before)""#)
                    || form.contains(#"name="at" type="datetime-local" value="\#(after)""#),
                "\(form)"
            )

            // Ben proposes tomorrow at 2 PM: he waits for "Ana Sofia L.", one period.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let tomorrow = try #require(calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: Date())))
            let at = tomorrow.addingTimeInterval(14 * 3_600)
            let point = MeetupRequest(latitude: 48.1510, longitude: 11.5790, at: at)
            let meetup = try await DealTests.meetup(client, market.ben, offer.conversationId, point)
            let waiting = try await ben.get(page).text
            #expect(waiting.contains("You proposed it: waiting for Ana Sofia L.<"), "\(waiting)")
            #expect(!waiting.contains("L.."))

            #expect(try await DealTests.act(client, market.ana, "meetups/\(meetup.id)/accept").status == .ok)
            let agreed = try await ben.get(page).text
            let opens = Reader.standard.upcoming(meetup.windowStart)
            #expect(opens.hasPrefix("tomorrow at ") || opens.hasPrefix("today at "))
            #expect(agreed.contains("Agreed. The handshake opens \(opens)."), "\(agreed)")
            #expect(!agreed.contains(" on Today") && !agreed.contains(" on Tomorrow"))

            // Its window gone by (before the minute's maintenance expires it), nothing "opens" any more.
            try await services.database.sql.update("market_meetups")
                .set("at", to: Date().addingTimeInterval(-7_200)).set(
                    "window_end",
                    to: Date().addingTimeInterval(-3_600)
                )
                .where("id", .equal, meetup.id).run()
            let passed = try await ben.get(page).text
            #expect(passed.contains("window has passed.") && !passed.contains("The handshake opens"))
        }
    }

    @Test func upcomingMomentsSayTheDayAsASentenceDoes() throws {
        let now = try #require(RFC3339.parse("2026-12-01T10:00:00Z"))
        let at = { (text: String) in try #require(RFC3339.parse(text)) }
        let us = Reader.standard
        let afternoon = try at("2026-12-01T14:30:00Z")
        #expect(us.upcoming(afternoon, now: now) == "today at \(us.time(afternoon))")
        let next = try at("2026-12-02T09:00:00Z")
        #expect(us.upcoming(next, now: now) == "tomorrow at \(us.time(next))")
        let british = Reader(locale: Locale(identifier: "en_GB"), timeZone: .gmt)
        let later = try at("2026-12-03T14:30:00Z")
        #expect(british.upcoming(later, now: now) == "on 3 December at \(british.time(later))")
        let nextYear = try at("2027-01-03T14:30:00Z")
        #expect(british.upcoming(nextYear, now: now) == "on 3 January 2027 at \(british.time(nextYear))")
        // The reader's day, not the server's: 22:30 in New York on the 1st, the meetup at 9 AM there on the 2nd.
        let newYork = Reader(
            locale: Locale(identifier: "en_US"),
            timeZone: try #require(TimeZone(identifier: "America/New_York"))
        )
        let evening = try at("2026-12-02T03:30:00Z")
        #expect(newYork.upcoming(try at("2026-12-02T14:00:00Z"), now: evening).hasPrefix("tomorrow at 9:00"))
    }

    @Test func theSuggestedMeetupIsTheNextWholeHourInTheReadersTimeZone() throws {
        let at = { (text: String) in try #require(RFC3339.parse(text)) }
        #expect(
            Reader.standard.nextWholeHour(after: try at("2026-12-01T14:20:00Z")) == (try at("2026-12-01T16:00:00Z"))
        )
        #expect(
            Reader.standard.nextWholeHour(after: try at("2026-12-01T14:00:00Z")) == (try at("2026-12-01T15:00:00Z"))
        )
        #expect(
            Reader.standard.nextWholeHour(after: try at("2026-12-01T23:30:00Z")) == (try at("2026-12-02T01:00:00Z"))
        )
        // India is 5:30 ahead: 13:50 there suggests 15:00 there, 09:30 UTC.
        let india = Reader(
            locale: Locale(identifier: "en_IN"),
            timeZone: try #require(TimeZone(identifier: "Asia/Kolkata"))
        )
        #expect(india.nextWholeHour(after: try at("2026-12-01T08:20:00Z")) == (try at("2026-12-01T09:30:00Z")))
    }

    @Test func aSentenceEndingInAnAbbreviatedNameHasOnePeriod() {
        #expect(MarketPages.period("You proposed it: waiting for Sam S.") == "You proposed it: waiting for Sam S.")
        #expect(MarketPages.period("You proposed it: waiting for Sam") == "You proposed it: waiting for Sam.")
    }
}
