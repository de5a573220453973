import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// A program's months as the merchant sees them: nothing about fewer than 5 customers, and no one's own history unless
/// they chose to share it.
extension LoyaltyTests {
    @Test(arguments: TestEngine.enabled)
    func monthlyFiguresHideFewerThanFiveCustomersAndRegularsAreOnlyThoseWhoShare(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let shop = try await shop(client, punches: 1)
            let accounts = AccountsDriver(client)
            let token = try await token(client, shop)
            let path = "/v1/businesses/\(shop.business.id)/loyalty/analytics?programId=\(shop.program.id)"
            func month() async throws -> LoyaltyMonth {
                let answer = try await client.send(.get, path, token: shop.owner)
                #expect(answer.status == .ok, "\(answer.text)")
                let analytics = try answer.decode(LoyaltyAnalytics.self)
                #expect(analytics.months.count == 12 && analytics.timeZone == "GMT")
                return try #require(analytics.months.last)
            }
            var customers: [String] = []
            for name in ["anna", "carla", "dario", "elena", "fritz", "greta"] {
                let customer = try await accounts.signedIn(name).accessToken
                customers.append(customer)
                let card = try await takeCard(client, shop.program, token: customer)
                #expect(
                    try await sync(client, [PunchSubmission(cardId: card.id, token: token.token)], token: customer)
                        .results[0].status == .counted
                )
                if customers.count == 3 {
                    let few = try await month()
                    #expect(
                        few.punches == nil && few.newCards == nil && few.completedCards == nil,
                        "3 customers: fewer than 5"
                    )
                    #expect(few.redemptions == 0 && few.redemptionRate == nil && few.returningCustomers == 0)
                }
            }
            let full = try await month()
            #expect(
                full.punches == 6 && full.newCards == 6 && full.completedCards == 6 && full.averageDaysToComplete == 0
            )

            // Regulars: nobody until a customer chooses to share; then only them.
            let regulars = "/v1/businesses/\(shop.business.id)/loyalty/regulars"
            #expect(
                try await client.send(.get, regulars, token: shop.owner).decode(Page<LoyaltyRegular>.self).items.isEmpty
            )
            let shared = try await client.send(
                .put,
                "/v1/me/loyalty-sharing/\(shop.business.id)",
                json: LoyaltySharingRequest(share: true),
                token: customers[0]
            )
            #expect(try shared.decode(LoyaltySharing.self) == LoyaltySharing(businessId: shop.business.id, share: true))
            let listed = try await client.send(.get, regulars, token: shop.owner).decode(Page<LoyaltyRegular>.self)
                .items
            #expect(listed.map(\.customer) == ["anna"] && listed[0].punches == 1 && listed[0].lastVisit != nil)
            #expect(
                try await client.send(.get, regulars, token: customers[1]).status == .forbidden,
                "customers see no one"
            )
            #expect(try await client.send(.get, path, token: customers[1]).status == .forbidden)
            _ = try await client.send(
                .put,
                "/v1/me/loyalty-sharing/\(shop.business.id)",
                json: LoyaltySharingRequest(share: false),
                token: customers[0]
            )
            #expect(
                try await client.send(.get, regulars, token: shop.owner).decode(Page<LoyaltyRegular>.self).items
                    .isEmpty,
                "and can stop"
            )
            #expect(
                try await client.send(.get, path + "&months=0", token: shop.owner).problem?.code == .validationFailed
            )
        }
    }
}
