import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The other direction: the customer's card shows a rotating code of its own, and staff scan or type it to punch.
extension LoyaltyTests {
    @Test(arguments: TestEngine.enabled)
    func staffPunchACustomerByTheCodeTheirCardShowsOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let shop = try await shop(client, punches: 3, velocity: 10)
            let other = try await self.shop(client, owner: "dora")
            let accounts = AccountsDriver(client)
            let anna = try await accounts.signedIn("anna").accessToken
            let carla = try await accounts.signedIn("carla").accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            let codePath = "/v1/me/loyalty-cards/\(card.id)/punch-code"
            #expect(
                try await client.send(.post, codePath, token: carla).status == .notFound,
                "only the card's holder gets its code"
            )
            let shown = try await client.send(.post, codePath, token: anna).decode(CustomerCode.self)
            #expect(
                shown.code.count == 8 && shown.qrPayload.hasPrefix("plaza:punch:\(shown.code).")
                    && shown.expiresAt > Date()
            )
            #expect(
                shown.expiresAt <= Date().addingTimeInterval(61),
                "a code lasts its 30-second window and a little typing time"
            )

            let path = "/v1/businesses/\(shop.business.id)/loyalty/punches"
            func punch(
                _ code: String,
                by token: String,
                key: String? = UUID().uuidString,
                at business: UUID? = nil
            ) async throws -> TestResponse {
                let location = business == other.business.id ? other.location.id : shop.location.id
                return try await client.send(
                    .post,
                    business.map { "/v1/businesses/\($0)/loyalty/punches" } ?? path,
                    json: CounterPunchRequest(code: code, locationId: location),
                    token: token,
                    headers: WalletDriver.keyed(key)
                )
            }
            #expect(try await punch(shown.code, by: shop.owner, key: nil).problem?.code == .idempotencyKeyRequired)
            #expect(
                try await punch(shown.code, by: anna).status == .forbidden,
                "a customer does not punch their own card"
            )
            let forged = try await punch("plaza:punch:\(shown.code).0000000000000000", by: shop.owner)
            #expect(
                forged.status == .unprocessableContent && forged.problem?.code == .invalidCode,
                "a QR not signed by Plaza"
            )
            #expect(
                try await punch(shown.code, by: other.owner, at: other.business.id).problem?.code == .invalidCode,
                "another business's"
            )

            let first = try await punch(shown.qrPayload, by: shop.owner, key: "counter-1")
            #expect(first.status == .ok, "\(first.text)")
            let counted = try first.decode(CounterPunch.self)
            #expect(
                counted.status == .counted && counted.customer == "anna" && counted.card.punches == 1
                    && counted.card.id == card.id
            )
            let retried = try await punch(shown.qrPayload, by: shop.owner, key: "counter-1")
            #expect(try retried.decode(CounterPunch.self) == counted, "a retry with the key gets the same answer")
            #expect(try await punch(shown.code, by: shop.owner).problem?.code == .invalidCode, "a code punches once")

            // The next code, a moment later: the program's velocity rule (10 minutes) holds, whoever scans.
            let again = try await client.send(.post, codePath, token: anna).decode(CustomerCode.self)
            let soon = try await punch(again.code, by: shop.owner).decode(CounterPunch.self)
            #expect(soon.status == .refused && soon.reason == .tooSoon && soon.card.punches == 1)
            let detail = try await client.send(.get, "/v1/me/loyalty-cards/\(card.id)", token: anna).decode(
                LoyaltyCardDetail.self
            )
            #expect(
                detail.card.punches == 1 && detail.punches.map(\.id) == [counted.id]
                    && detail.punches[0].locationId == shop.location.id
            )
        }
    }
}

extension LoyaltyTests {
    /// Two counters scanning one customer code at once (issue 36: both read it before either used it up, and with no
    /// velocity rule both counted): one punch, the other told the code is spent.
    @Test(arguments: TestEngine.enabled)
    func twoCountersScanningOneCodeAtOncePunchOnce(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let shop = try await shop(client, punches: 20, velocity: 0)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await takeCard(client, shop.program, token: anna)
            let path = "/v1/businesses/\(shop.business.id)/loyalty/punches"
            var counted = 0
            for _ in 0..<10 {
                let shown = try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/punch-code", token: anna)
                    .decode(CustomerCode.self)
                let request = CounterPunchRequest(code: shown.code, locationId: shop.location.id)
                async let first = client.send(
                    .post,
                    path,
                    json: request,
                    token: shop.owner,
                    headers: WalletDriver.keyed(UUID().uuidString)
                )
                async let second = client.send(
                    .post,
                    path,
                    json: request,
                    token: shop.owner,
                    headers: WalletDriver.keyed(UUID().uuidString)
                )
                let answers = try await [first, second]
                let punched = answers.filter { $0.status == .ok }
                #expect(punched.count == 1, "\(answers.map(\.text))")
                #expect(answers.contains { $0.problem?.code == .invalidCode }, "the other is told the code is spent")
                counted += punched.count
            }
            let detail = try await client.send(.get, "/v1/me/loyalty-cards/\(card.id)", token: anna).decode(
                LoyaltyCardDetail.self
            )
            #expect(detail.card.punches == counted && detail.punches.count == counted)
        }
    }

    /// Customers find the places with a card to take: `hasLoyalty` in search and nearby follows the programs' states.
    @Test(arguments: TestEngine.enabled)
    func searchAndNearbyFindBusinessesRunningAProgram(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let shop = try await shop(client)
            _ = try await PlacesDriver(client).shop(owner: "dora", name: "Dora's Café", at: square)
            func found(_ query: String) async throws -> [String] {
                let response = try await client.send(.get, query)
                #expect(response.status == .ok, "\(response.text)")
                return try response.decode(Page<BusinessSummary>.self).items.map {
                    "\($0.name)\($0.hasLoyalty ? "+" : "")"
                }
            }
            let near = "/v1/nearby/businesses?latitude=\(square.latitude)&longitude=\(square.longitude)"
            #expect(try await found("/v1/businesses?q=caf%C3%A9").sorted() == ["Bruno's Café+", "Dora's Café"])
            #expect(try await found("/v1/businesses?q=caf%C3%A9&hasLoyalty=true") == ["Bruno's Café+"])
            #expect(try await found("/v1/businesses?hasLoyalty=false") == ["Dora's Café"])
            #expect(try await found("\(near)&hasLoyalty=true") == ["Bruno's Café+"])
            #expect(try await client.send(.get, "/v1/businesses?hasLoyalty=yes").problem?.code == .validationFailed)
            let business = try await client.send(.get, "/v1/businesses/\(shop.business.id)").decode(Business.self)
            #expect(business.hasLoyalty)

            // Paused, it offers no card: it drops out of the filter at once, in the catalog too.
            let paused = try await client.send(
                .patch,
                "/v1/loyalty-programs/\(shop.program.id)",
                json: LoyaltyProgramChange(state: .paused),
                token: shop.owner
            )
            #expect(paused.status == .ok)
            #expect(try await found("/v1/businesses?hasLoyalty=true").isEmpty)
            #expect(try await found("\(near)&hasLoyalty=true").isEmpty)
            #expect(try await found("\(near)&hasLoyalty=false").count == 2)
        }
    }
}
