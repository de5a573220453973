import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Staff give several punches for one larger purchase (issue 39): `count` on the counter punch, 1 to 10 and at most the
/// card's size; what a punch added is kept with it, so the card's history and `plaza verify` count the same.
extension LoyaltyTests {
    @Test(arguments: TestEngine.enabled)
    func staffGiveSeveralPunchesForOneVisit(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let shop = try await shop(client, punches: 5, velocity: 0)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            let path = "/v1/businesses/\(shop.business.id)/loyalty/punches"
            func punch(_ count: Int?) async throws -> TestResponse {
                let shown = try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/punch-code", token: anna)
                    .decode(CustomerCode.self)
                return try await client.send(
                    .post,
                    path,
                    json: CounterPunchRequest(code: shown.code, locationId: shop.location.id, count: count),
                    token: shop.owner,
                    headers: WalletDriver.keyed(UUID().uuidString)
                )
            }
            for wrong in [0, 11, 6] {
                let refused = try await punch(wrong)
                #expect(
                    refused.status == .unprocessableContent && refused.problem?.errors?.map(\.field) == ["count"],
                    "\(wrong): \(refused.text)"
                )
            }
            let three = try await punch(3).decode(CounterPunch.self)
            #expect(three.status == .counted && three.punchesAdded == 3 && three.card.punches == 3)
            let one = try await punch(nil).decode(CounterPunch.self)
            #expect(one.punchesAdded == 1 && one.card.punches == 4)
            // Five asked on a card that needs one more: it fills, and the answer says one was added.
            let filled = try await punch(5).decode(CounterPunch.self)
            #expect(filled.punchesAdded == 1 && filled.card.punches == 5 && filled.card.state == .completed)

            let cards = try await client.send(.get, "/v1/me/loyalty-cards", token: anna).decode(Page<LoyaltyCard>.self)
            #expect(cards.items.map(\.punches).sorted() == [0, 5], "the next card starts empty")
            #expect(try await services.verify(recheckAfter: .zero).findings.isEmpty)
        }
    }
}
