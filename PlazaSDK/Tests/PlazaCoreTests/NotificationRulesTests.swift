import Foundation
import PlazaCore
import Testing

@Suite struct NotificationRulesTests {
    @Test func anEndpointIsAnAbsoluteAddressOfAtMostAThousandCharacters() {
        #expect(NotificationRules.endpointProblem("https://fcm.googleapis.com/fcm/send/abc") == nil)
        #expect(NotificationRules.endpointProblem("not a url") != nil)
        #expect(NotificationRules.endpointProblem("/push/1") != nil)
        #expect(
            NotificationRules.endpointProblem("https://fcm.googleapis.com/" + String(repeating: "a", count: 1000))
                != nil
        )
    }

    @Test func quietHoursEndWhereTheyEndInTheUsersZone() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let night = QuietHours(from: "22:00", until: "07:00")
        // 23:30 in Berlin (22:30 UTC in winter): quiet until 07:00 Berlin, 06:00 UTC.
        let late = try #require(RFC3339.parse("2026-11-24T22:30:00Z"))
        #expect(
            NotificationRules.quietUntil(night, now: late, timeZone: berlin) == RFC3339.parse("2026-11-25T06:00:00Z")
        )
        let early = try #require(RFC3339.parse("2026-11-25T05:00:00Z"))
        #expect(
            NotificationRules.quietUntil(night, now: early, timeZone: berlin) == RFC3339.parse("2026-11-25T06:00:00Z")
        )
        let noon = try #require(RFC3339.parse("2026-11-25T11:00:00Z"))
        #expect(NotificationRules.quietUntil(night, now: noon, timeZone: berlin) == nil)
        let lunch = QuietHours(from: "12:00", until: "13:00")
        #expect(
            NotificationRules.quietUntil(lunch, now: noon, timeZone: berlin) == RFC3339.parse("2026-11-25T12:00:00Z")
        )
        #expect(NotificationRules.quietUntil(nil, now: noon, timeZone: berlin) == nil)
        #expect(!NotificationKind.moneyReceived.urgent && NotificationKind.moneyRequests.urgent)
    }

    @Test func presenceIsOffUntilChosenAndAndroidTokensAreChecked() {
        #expect(!NotificationPreferences.standard.preference(.presence).push)
        #expect(NotificationPreferences.standard.preference(.market).push)
        let token = String(repeating: "aB3-_:", count: 20)
        #expect(NotificationRules.registrationProblems(DeviceRegistration(platform: .fcm, token: token)).isEmpty)
        #expect(
            NotificationRules.registrationProblems(DeviceRegistration(platform: .fcm, token: "not a token")).map(
                \.field
            )
                == ["token"]
        )
        #expect(NotificationRules.shortName("Anna Maria Keller") == "Anna K.")
    }
}
