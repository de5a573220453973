import Foundation
import PlazaCore
import Testing

@testable import PlazaServer

@Suite struct LineWaitSummaryTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let utc = TimeZone(identifier: "UTC")!

    func summary(_ reports: [(minutes: Int, ago: TimeInterval)]) -> LineWaitSummary {
        LineWaitSummary(reports: reports.map { ($0.minutes, now.addingTimeInterval(-$0.ago)) }, now: now, timeZone: utc)
    }

    @Test func anOutlierDoesNotMoveTheEstimate() {
        let waits = summary([(10, 60), (12, 120), (11, 300), (9, 600), (95, 900)])
        #expect(waits.recent == [10, 12, 11, 9])
        #expect(waits.currentMinutes == 11)
    }

    @Test func reportsOlderThanAnHourAreHistoryNotTheEstimate() {
        let waits = summary([(30, 2 * 3_600), (5, 600)]).summary(location: UUID())
        #expect(waits.currentMinutes == 5 && waits.recentReports == 1)
        #expect(waits.newestReportAgeMinutes == 10)
        #expect(waits.averages.map(\.reports).reduce(0, +) == 2)
    }

    @Test func withoutRecentReportsThereIsNoEstimateButTheAgeIsShown() {
        let waits = summary([(20, 3 * 3_600)]).summary(location: UUID())
        #expect(waits.currentMinutes == nil && waits.recentReports == 0 && waits.newestReportAgeMinutes == 180)
    }
}
