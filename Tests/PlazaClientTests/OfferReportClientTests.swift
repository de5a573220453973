import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaClient
import PlazaCore
import PlazaTestSupport
import Testing

/// Issue 40 with the SDK: the customer's phone reports an offer, an admin's app stops the campaign, the merchant's app
/// reads why, and the coupon cannot be claimed any more.
extension OffersClientTests {
    @Test(arguments: TestEngine.enabled)
    func thePhoneReportsAnOfferAndAnAdminStopsItsCampaign(_ engine: TestEngine) async throws {
        try await PlacesClientTests.withClients(engine) { bruno, anna, accounts in
            let (business, content) = try await gelateria(bruno)
            let draft = try await bruno.createCampaign(business: business.id, content)
            _ = try await bruno.submitCampaign(draft.id)
            let token = try await accounts.login(AccountsDriver.admin).decode(TokenResponse.self).accessToken
            let queue = try await accounts.client.send(.get, "/v1/admin/review-queue?kind=campaign", token: token)
                .decode(Page<ReviewItem>.self)
            let item = try #require(queue.items.first { $0.subjectId == draft.id })
            _ = try await accounts.client.send(.post, "/v1/admin/review-queue/\(item.id)/approve", token: token)
            // Claimed from the town's offers: it is one of hers now, and hers to report.
            let claim = try await anna.claimTownOffer(draft.id)

            let report = try await anna.reportOffer(
                draft.id,
                OfferReportRequest(reason: .misleading, details: "The scoops were never 1.50 off")
            )
            #expect(report.offerId == draft.id && report.state == .open && report.reason == .misleading)
            #expect(try await anna.reportOffer(draft.id, OfferReportRequest(reason: .scam)) == report, "once each")
            do {
                _ = try await anna.reportOffer(UUID(), OfferReportRequest(reason: .scam))
                Issue.record("an offer that did not reach her")
            } catch let error as PlazaClientError {
                #expect(error.code == .notFound)
            }

            let base = URL(string: "http://127.0.0.1:\(try #require(accounts.client.port))")!
            let admin = PlazaClient(baseURL: base)
            try await admin.login(AccountsDriver.admin, password: AccountsDriver.password)
            do {
                _ = try await bruno.stopCampaign(draft.id, reason: "Not his to stop")
                Issue.record("only admins stop campaigns")
            } catch let error as PlazaClientError {
                #expect(error.code == .forbidden)
            }
            let stopped = try await admin.stopCampaign(draft.id, reason: "The discount was never given")
            #expect(stopped.state == .ended && stopped.stopReason == "The discount was never given")
            let read = try await bruno.campaign(draft.id)
            #expect(read.stopReason == "The discount was never given" && read.stoppedAt != nil)
            do {
                _ = try await anna.claimOffer(draft.id)
                Issue.record("a stopped campaign's coupon, even \(claim.code), is not claimed")
            } catch let error as PlazaClientError {
                #expect(error.code == .stateConflict)
            }
        }
    }
}
