import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Offers running in town (issue 39: search found only offers that had reached the customer): anyone signed in
/// browses every running campaign of a listed business; each offer's own targeting still decides who claims it.
@Suite struct TownOfferTests {
    let delivery = OfferDeliveryTests()

    func town(_ client: any TestClientProtocol, _ token: String, _ query: String = "") async throws -> [TownOffer] {
        let response = try await client.send(.get, "/v1/offers/town\(query)", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(Page<TownOffer>.self).items
    }

    @Test(arguments: TestEngine.enabled)
    func aCustomerFindsWhatRunsInTownAndClaimsWhatIsForHer(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await delivery.shop(client, services)
            let open = try await delivery.run(CampaignTests.coupon(), at: shop, client)
            let students = try await delivery.run(
                CampaignTests.coupon(title: "Student loaf", target: CampaignTarget(ageMin: 18, studentsOnly: true)),
                at: shop,
                client
            )
            // Carla kept the settings she started with: nothing reached her, and her own offers' search is empty.
            let carla = try await delivery.customer(client, "carla", OfferSettingsChange())
            #expect(try await delivery.offers(client, carla).isEmpty)
            let mine = try await client.send(.get, "/v1/offers/search?q=bruno", token: carla)
            #expect(try mine.decode(Page<Offer>.self).items.isEmpty)

            // In town she finds both coupons by the shop's name; only the one for everybody is hers to claim, and the
            // other says so without naming its rule.
            let found = try await town(client, carla, "?q=bruno")
            #expect(Set(found.map(\.id)) == [open, students])
            let forAll = try #require(found.first { $0.id == open })
            let forStudents = try #require(found.first { $0.id == students })
            #expect(forAll.claimable && !forAll.received && forAll.notClaimable == nil && forAll.claim == nil)
            #expect(forAll.business.name == "Bruno's Bakery" && forAll.discount?.percentOff == 10)
            #expect(!forStudents.claimable && forStudents.notClaimable == .notForYou)
            #expect(try await town(client, carla, "?q=florist").isEmpty)
            #expect(try await town(client, carla, "?category=grocery").count == 2)

            // Claiming it makes it hers: among her offers, with its code, and claiming again gives the same claim.
            let first = try await client.send(.post, "/v1/offers/town/\(open)/claim", token: carla)
            #expect(first.status == .created, "\(first.text)")
            let claim = try first.decode(CouponClaim.self)
            #expect(try await delivery.offers(client, carla).map(\.id) == [open])
            let again = try await client.send(.post, "/v1/offers/town/\(open)/claim", token: carla)
            let same = try again.decode(CouponClaim.self)
            #expect(again.status == .ok && same.id == claim.id)
            let listed = try #require(try await town(client, carla).first { $0.id == open })
            #expect(listed.received && listed.claim?.code == claim.code)

            // The students' coupon stays out of reach: 403 with a sentence that names no rule, and not among hers.
            let refused = try await client.send(.post, "/v1/offers/town/\(students)/claim", token: carla)
            #expect(refused.status == .forbidden && refused.problem?.code == .forbidden)
            #expect(refused.problem?.title.lowercased().contains("student") == false)
            #expect(try await client.send(.get, "/v1/offers/\(students)", token: carla).status == .notFound)
            #expect(try await client.send(.post, "/v1/offers/town/\(UUID())/claim", token: carla).status == .notFound)
            #expect(try await client.send(.get, "/v1/offers/town").status == .unauthorized)
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aPausedCampaignIsNotInTown(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await delivery.shop(client, services)
            let coupon = try await delivery.run(CampaignTests.coupon(), at: shop, client)
            let carla = try await delivery.customer(client, "carla", OfferSettingsChange())
            #expect(try await town(client, carla).map(\.id) == [coupon])
            let paused = try await client.send(.post, "/v1/campaigns/\(coupon)/pause", token: shop.owner)
            #expect(paused.status == .ok, "\(paused.text)")
            #expect(try await town(client, carla).isEmpty)
            #expect(try await client.send(.post, "/v1/offers/town/\(coupon)/claim", token: carla).status == .notFound)
        }
    }
}
