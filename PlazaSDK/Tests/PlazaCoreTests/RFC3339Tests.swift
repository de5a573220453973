import Foundation
import PlazaCore
import Testing

@Suite struct RFC3339Tests {
    /// Random instants from 1900 to 2200 written and read back agree with Foundation's ISO 8601 style.
    @Test func agreesWithFoundationOnRandomInstants() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            let ours = RFC3339.format(date)
            #expect(ours == date.formatted(Date.ISO8601FormatStyle()))
            #expect(RFC3339.parse(ours) == date)
            let millis = Date(timeIntervalSince1970: seconds + Double(Int.random(in: 0..<1_000)) / 1_000)
            let withFraction = millis.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let parsed = try #require(RFC3339.parse(withFraction))
            let foundation = try Date(withFraction, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            #expect(abs(parsed.timeIntervalSince(foundation)) < 0.000_001)
        }
    }

    @Test func readsOffsetsAndLowercase() {
        let utc = RFC3339.parse("2026-11-23T10:00:00Z")
        #expect(utc == Date(timeIntervalSince1970: 1_795_428_000))
        #expect(RFC3339.parse("2026-11-23T11:30:00+01:30") == utc)
        #expect(RFC3339.parse("2026-11-23T05:00:00-05:00") == utc)
        #expect(RFC3339.parse("2026-11-23t10:00:00z") == utc)
        #expect(RFC3339.parse("2024-02-29T00:00:00.5Z") == Date(timeIntervalSince1970: 1_709_164_800.5))
        #expect(PlazaJSON.parseDate("2026-11-23T10:00:00.250Z") == Date(timeIntervalSince1970: 1_795_428_000.25))
    }

    @Test(arguments: [
        "", "2026-11-23", "2026-11-23T10:00:00", "2026-11-23 10:00:00Z", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
        "2026-11-31T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T10:60:00Z", "2026-11-23T10:00:00.Z",
        "2026-11-23T10:00:00Zjunk",
        "2026-11-23T10:00:00+1:00", "２０２６-11-23T10:00:00Z",
    ])
    func refusesWhatIsNotADateTime(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }
}
