import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The loyalty counter says why it shows no code, and shows one once the merchant may trade.
@Suite struct LoyaltyPagesTests {
    @Test func theCounterOfAWaitingMerchantSaysWhyItShowsNoCode() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let accounts = AccountsDriver(client)
            let places = PlacesDriver(client)
            let dora = try await accounts.signedIn("dora", role: .merchant, approved: false).accessToken
            let business = try await places.createBusiness(name: "Dora's Flowers", token: dora)
            _ = try await places.addLocation(business: business.id, at: Coordinate(latitude: 48.1374, longitude: 11.5755), token: dora)
            let created = try await client.send(
                .post, "/v1/businesses/\(business.id)/loyalty-programs",
                json: LoyaltyProgramRequest(title: "Bouquet card", punchesRequired: 5, reward: "A rose"), token: dora)
            #expect(created.status == .created)

            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "dora", "password": AccountsDriver.password])
            let counter = "/loyalty/counter/\(business.id.uuidString.lowercased())"
            let waiting = try await browser.get(counter).text
            #expect(waiting.contains("data-counter-waiting") && waiting.contains("once an admin approves your business"))
            #expect(!waiting.contains("data-punch-code"))

            let me = try await client.send(.get, "/v1/me", token: dora).decode(User.self)
            try await accounts.approveMerchant(me.id)
            let running = try await browser.get(counter).text
            #expect(running.contains("data-punch-code") && !running.contains("data-counter-waiting"))
        }
    }
}
