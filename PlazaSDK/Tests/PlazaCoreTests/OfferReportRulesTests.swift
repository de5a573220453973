import Foundation
import PlazaCore
import Testing

/// Issue 40: what a report of an offer must say, and how the admin reads it.
@Suite struct OfferReportRulesTests {
    @Test func somethingElseNeedsDetailsAndDetailsHaveALimit() {
        #expect(OfferRules.reportProblems(OfferReportRequest(reason: .misleading)).isEmpty)
        #expect(OfferRules.reportProblems(OfferReportRequest(reason: .other)).map(\.field) == ["details"])
        #expect(
            OfferRules.reportProblems(OfferReportRequest(reason: .other, details: "  \n")).map(\.field) == ["details"]
        )
        #expect(OfferRules.reportProblems(OfferReportRequest(reason: .other, details: "Fake shop")).isEmpty)
        let long = String(repeating: "é", count: 1_001)
        #expect(OfferRules.reportProblems(OfferReportRequest(reason: .scam, details: long)).map(\.field) == ["details"])
        #expect(OfferRules.reportProblems(OfferReportRequest(reason: .scam, details: String(long.dropLast()))).isEmpty)
    }

    @Test func theAdminReadsTheReasonAndTheCustomersWords() {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(
            OfferRules.reportFinding(.scam, details: "No such shop", at: at)
                == "Reported as scam on 2027-01-15T08:00:00Z — “No such shop”"
        )
        #expect(
            OfferRules.reportFinding(.offensive, details: nil, at: at)
                == "Reported as offensive on 2027-01-15T08:00:00Z"
        )
    }

    @Test func reportsAndStopsKeepTheirWireNames() throws {
        #expect(
            ReviewKind.offerReport.rawValue == "offer_report" && ReviewAction.stopCampaign.rawValue == "stop_campaign"
        )
        let json = String(
            decoding: try JSONEncoder().encode(OfferReportRequest(reason: .discriminatory)),
            as: UTF8.self
        )
        #expect(json == #"{"reason":"discriminatory"}"#)
    }
}
