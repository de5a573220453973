import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Paying earns the punch (issue 39): a program that earns on payment punches the payer's card when a Plaza charge at
/// its business is paid.
@Suite struct LoyaltyPaymentTests {
    @Test(arguments: TestEngine.enabled)
    func ownersSayHowPayingEarnsAndMayChangeItWhileCardsAreHeld(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, _ in
            let shop = try await LoyaltyTests().shop(client)
            #expect(shop.program.earnOnPayment == false && shop.program.punchesPerPurchase == .one)
            let path = "/v1/businesses/\(shop.business.id)/loyalty-programs"

            // One punch for each whole 5.00 spent, from 3.00 up.
            var request = LoyaltyProgramRequest(title: "Bread card", punchesRequired: 10, reward: "A loaf")
            request.minimumSpend = Money(amount: 300, currency: "USD")
            request.earnOnPayment = true
            request.punchesPerPurchase = .per(Money(amount: 500, currency: "USD"))
            let created = try await client.send(.post, path, json: request, token: shop.owner)
            #expect(created.status == .created, "\(created.text)")
            let bread = try created.decode(LoyaltyProgram.self)
            #expect(bread.earnOnPayment && bread.punchesPerPurchase == .per(Money(amount: 500, currency: "USD")))
            #expect(created.text.contains(#""punchesPerPurchase":{"per":{"#), "\(created.text)")

            // A punch per nothing, or per another currency than the minimum's, is named.
            request.title = "Cake card"
            request.punchesPerPurchase = .per(Money(amount: 0, currency: "USD"))
            let zero = try await client.send(.post, path, json: request, token: shop.owner)
            #expect(zero.status == .unprocessableContent && zero.text.contains("punchesPerPurchase.per"), "\(zero.text)")
            request.punchesPerPurchase = .per(Money(amount: 500, currency: "EUR"))
            let other = try await client.send(.post, path, json: request, token: shop.owner)
            #expect(other.status == .unprocessableContent && other.text.contains("punchesPerPurchase.per"), "\(other.text)")
            let word = try await client.sendRaw(
                .post,
                path,
                body: #"{"title":"Tea card","punchesRequired":5,"reward":"A tea","punchesPerPurchase":"two"}"#,
                token: shop.owner
            )
            #expect(word.status == .unprocessableContent || word.status == .badRequest, "\(word.text)")

            // The coffee card's holders keep their cards; paying starts to earn for charges paid from now on.
            let customer = try await AccountsDriver(client).signedIn("anna").accessToken
            _ = try await LoyaltyTests().takeCard(client, shop.program, token: customer)
            let changed = try await client.send(
                .patch,
                "/v1/loyalty-programs/\(shop.program.id)",
                json: LoyaltyProgramChange(earnOnPayment: true),
                token: shop.owner
            )
            #expect(changed.status == .ok, "\(changed.text)")
            let program = try changed.decode(LoyaltyProgram.self)
            #expect(program.earnOnPayment && program.punchesPerPurchase == .one)
        }
    }
}
