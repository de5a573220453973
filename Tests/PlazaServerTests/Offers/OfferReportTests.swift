import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Offers an admin can stop and a customer can report (issue 40): reports gather in one review item of the campaign;
/// a stop, from that item or the admin API, ends the campaign with the reason its business reads, and claims stop.
@Suite struct OfferReportTests {
    let delivery = OfferDeliveryTests()

    /// Bruno's running coupon, which reached each of `names` near the shop.
    func reached(
        _ client: any TestClientProtocol,
        _ services: PlazaServices,
        _ names: [String] = ["anna"]
    ) async throws -> (shop: OfferDeliveryTests.Shop, coupon: UUID, tokens: [String]) {
        let shop = try await delivery.shop(client, services)
        let coupon = try await delivery.run(CampaignTests.coupon(), at: shop, client)
        var tokens: [String] = []
        for name in names {
            let token = try await delivery.customer(client, name, OfferSettingsChange(coupons: .nearby))
            try await PlacesDriver(client).move(to: delivery.corner, token: token)
            tokens.append(token)
        }
        return (shop, coupon, tokens)
    }

    func report(
        _ client: any TestClientProtocol,
        _ offer: UUID,
        _ body: OfferReportRequest,
        token: String
    ) async throws -> TestResponse {
        try await client.send(.post, "/v1/offers/\(offer)/report", json: body, token: token)
    }

    func stop(
        _ client: any TestClientProtocol,
        _ id: UUID,
        _ reason: String,
        token: String
    ) async throws -> TestResponse {
        try await client.send(
            .post,
            "/v1/admin/campaigns/\(id)/stop",
            json: CampaignStopRequest(reason: reason),
            token: token
        )
    }

    func reportItem(_ client: any TestClientProtocol, admin: String, campaign: UUID) async throws -> ReviewItem? {
        try await client.send(.get, "/v1/admin/review-queue?kind=offer_report", token: admin)
            .decode(Page<ReviewItem>.self).items.first { $0.subjectId == campaign }
    }

    func audit(_ client: any TestClientProtocol, admin: String) async throws -> [AuditEntry] {
        try await client.send(.get, "/v1/admin/audit-log", token: admin).decode(Page<AuditEntry>.self).items
    }

    @Test(arguments: TestEngine.enabled)
    func reportsGatherInOneItemWhoseStopEndsTheCampaign(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let (shop, coupon, tokens) = try await reached(client, services, ["anna", "carla"])
            let (anna, carla) = (tokens[0], tokens[1])
            let dora = try await delivery.customer(client, "dora", OfferSettingsChange())

            let vague = try await report(client, coupon, OfferReportRequest(reason: .other), token: anna)
            #expect(vague.status == .unprocessableContent && vague.problem?.errors?.map(\.field) == ["details"])
            let long = OfferReportRequest(reason: .scam, details: String(repeating: "x", count: 1_001))
            let tooLong = try await report(client, coupon, long, token: anna)
            #expect(tooLong.status == .unprocessableContent && tooLong.problem?.errors?.map(\.field) == ["details"])
            let odd = try await client.sendRaw(
                .post,
                "/v1/offers/\(coupon)/report",
                body: #"{"reason":"rude"}"#,
                token: anna
            )
            #expect(odd.status == .unprocessableContent && odd.problem?.errors?.map(\.field) == ["reason"])
            #expect(
                try await report(client, coupon, OfferReportRequest(reason: .scam), token: dora).status == .notFound
            )
            #expect(try await reportItem(client, admin: shop.admin, campaign: coupon) == nil, "nothing filed yet")

            let said = OfferReportRequest(reason: .misleading, details: "No loaf was 10 % off")
            let first = try await report(client, coupon, said, token: anna)
            #expect(first.status == .created, "\(first.text)")
            let filed = try first.decode(OfferReport.self)
            #expect(filed.offerId == coupon && filed.state == .open && filed.reason == .misleading)
            let again = try await report(client, coupon, OfferReportRequest(reason: .scam), token: anna)
            let twice = try again.decode(OfferReport.self)
            #expect(again.status == .ok && twice == filed, "one report per person")
            #expect(
                try await report(client, coupon, OfferReportRequest(reason: .scam), token: carla).status == .created
            )

            let item = try #require(try await reportItem(client, admin: shop.admin, campaign: coupon))
            #expect(item.subject == "“Morning bread” by Bruno's Bakery" && item.actions == [.stopCampaign])
            let findings = item.findings.joined(separator: "\n")
            #expect(findings.contains("10 % off any loaf before ten"), "the offer's text: \(findings)")
            #expect(findings.contains("misleading") && findings.contains("“No loaf was 10 % off”"))
            #expect(findings.contains("Reported as scam"), "one item gathers both reports")
            let queue = try await client.send(.get, "/v1/admin/review-queue?kind=offer_report", token: shop.admin)
            #expect(try queue.decode(Page<ReviewItem>.self).items.count == 1)

            let silent = try await client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/approve",
                json: ReviewApproval(action: .stopCampaign),
                token: shop.admin
            )
            #expect(silent.status == .unprocessableContent && silent.problem?.errors?.map(\.field) == ["reason"])
            let decided = try await client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/approve",
                json: ReviewApproval(reason: "The discount was never given", action: .stopCampaign),
                token: shop.admin
            )
            #expect(decided.status == .ok, "\(decided.text)")

            let campaign = try await client.send(.get, "/v1/campaigns/\(coupon)", token: shop.owner).decode(
                Campaign.self
            )
            #expect(campaign.state == .ended && campaign.stopReason == "The discount was never given")
            #expect(campaign.stoppedAt != nil)
            let claim = try await client.send(.post, "/v1/offers/\(coupon)/claim", token: anna)
            #expect(claim.status == .conflict && claim.problem?.code == .stateConflict, "\(claim.text)")
            let entries = try await audit(client, admin: shop.admin)
            #expect(entries.contains { $0.action == "campaign.stop" && $0.objectId == coupon.uuidString.lowercased() })
            let inbox = try await client.send(.get, "/v1/inbox", token: shop.owner).decode(InboxPage.self)
            let notice = try #require(inbox.items.first { $0.kind == .decision })
            #expect(notice.title.contains("Plaza stopped your campaign “Morning bread”"))
            #expect(notice.note == "The reason: The discount was never given")
            let repeated = try await stop(client, coupon, "Stop it again", token: shop.admin)
            #expect(repeated.status == .conflict && repeated.problem?.code == .stateConflict)
            #expect(try await services.verify().findings == [])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func anAdminStopsARunningCampaignAndADismissalLeavesItRunning(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let (shop, coupon, tokens) = try await reached(client, services)
            let anna = tokens[0]
            #expect(
                try await report(client, coupon, OfferReportRequest(reason: .offensive), token: anna).status == .created
            )
            let item = try #require(try await reportItem(client, admin: shop.admin, campaign: coupon))
            let dismissed = try await client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/reject",
                json: ReviewReason(reason: "Nothing offensive in it"),
                token: shop.admin
            )
            #expect(dismissed.status == .ok, "\(dismissed.text)")
            #expect(
                try await client.send(.get, "/v1/campaigns/\(coupon)", token: shop.owner).decode(Campaign.self).state
                    == .active
            )
            let held = try await client.send(.post, "/v1/offers/\(coupon)/claim", token: anna)
            #expect(held.status == .created, "a dismissal leaves it running: \(held.text)")

            #expect(try await stop(client, coupon, "Misleading", token: shop.owner).status == .forbidden)
            let short = try await stop(client, coupon, "no", token: shop.admin)
            #expect(short.status == .unprocessableContent && short.problem?.errors?.map(\.field) == ["reason"])
            #expect(try await stop(client, UUID(), "Misleading", token: shop.admin).status == .notFound)

            let stopped = try await stop(client, coupon, "The shop closed for good", token: shop.admin)
            #expect(stopped.status == .ok, "\(stopped.text)")
            let answered = try stopped.decode(Campaign.self)
            #expect(answered.state == .ended && answered.stopReason == "The shop closed for good")
            let read = try await client.send(.get, "/v1/campaigns/\(coupon)", token: shop.owner).decode(Campaign.self)
            #expect(read.state == .ended && read.stopReason == "The shop closed for good")
            let claim = try await client.send(.post, "/v1/offers/\(coupon)/claim", token: anna)
            #expect(claim.status == .conflict && claim.problem?.code == .stateConflict, "even the claim held before")
            let entry = try #require(try await audit(client, admin: shop.admin).first { $0.action == "campaign.stop" })
            #expect(entry.objectId == coupon.uuidString.lowercased() && entry.reason == "The shop closed for good")
            #expect(entry.objectKind == "campaign")
            #expect(try await stop(client, coupon, "Again", token: shop.admin).problem?.code == .stateConflict)
            #expect(try await services.verify().findings == [])
        }
    }

    /// Customers claiming while the admin stops: each claim decides from the campaign's locked row, so every claim
    /// that succeeded was made before the stop (`plaza verify` names any made after), and the counter matches.
    @Test(arguments: TestEngine.enabled)
    func claimsRacingAStopNeverLandAfterIt(_ engine: TestEngine) async throws {
        let limits: (inout PlazaConfiguration) -> Void = {
            ($0.limits.signupsPerAddress, $0.limits.codeMailsPerAddress) = (100, 100)
        }
        try await TestPlaza.withApp(engine, configure: limits) { client, services in
            let names = (0..<10).map { "racer\($0)" }
            let (shop, coupon, tokens) = try await reached(client, services, names)
            let statuses = try await withThrowingTaskGroup(of: (Bool, HTTPResponse.Status).self) { group in
                for (index, token) in tokens.enumerated() {
                    if index == 3 {
                        group.addTask {
                            (true, try await stop(client, coupon, "Stopped mid-rush", token: shop.admin).status)
                        }
                    }
                    group.addTask {
                        (false, try await client.send(.post, "/v1/offers/\(coupon)/claim", token: token).status)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 }.map { $0.1 } == [.ok])
            let claims = statuses.filter { !$0.0 }.map { $0.1 }
            #expect(claims.allSatisfy { [.created, .conflict].contains($0) }, "\(claims)")
            let campaign = try await client.send(.get, "/v1/campaigns/\(coupon)", token: shop.owner).decode(
                Campaign.self
            )
            #expect(campaign.state == .ended && campaign.claimed == claims.filter { $0 == .created }.count)
            #expect(try await services.verify().findings == [])
            for token in tokens {
                #expect(try await client.send(.post, "/v1/offers/\(coupon)/claim", token: token).status == .conflict)
            }
        }
    }
}
