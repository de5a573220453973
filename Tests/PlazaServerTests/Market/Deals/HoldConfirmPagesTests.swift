import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 39, trust at the till: paying into the marketplace's hold asks for a confirmation like every other payment;
/// the deal card's button opens it, and only its button moves money.
@Suite struct HoldConfirmPagesTests {
    @Test(arguments: TestEngine.enabled)
    func payingIntoTheHoldIsConfirmedFirst(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let market = try await ChatTests.market(client, services)
            let wallet = WalletDriver(client)
            _ = try await wallet.fund(10_000, token: market.ben)
            let offer = try await DealTests.acceptedDeal(client, market, paid: false)
            let id = offer.id.uuidString.lowercased()
            let conversation = "/market/conversations/\(offer.conversationId.uuidString.lowercased())"
            let ben = try await ListingPagesTests.browser(client, "ben")

            let card = try await ben.get("\(conversation)/deal").text
            #expect(card.contains(#"href="/market/offers/\#(id)/review""#), "the card's button opens the confirmation")
            #expect(!card.contains(#"action="/market/offers/\#(id)/pay""#), "the card itself pays nothing")

            let confirm = try await ben.get("/market/offers/\(id)/review")
            #expect(confirm.status == .ok)
            let page = confirm.text
            #expect(page.contains("Ana") && page.contains("$80.00") && page.contains(market.listing.title))
            #expect(page.contains("Pay $80.00 into Plaza's hold"))
            #expect(try await wallet.balance(token: market.ben) == 10_000, "nothing moves before the confirmation")

            let key = WalletPagesTests.field("idempotencyKey", in: page)
            let paid = try await ben.post(
                "/market/offers/\(id)/pay",
                ["idempotencyKey": key],
                csrf: PageSession.csrfToken(in: page)
            )
            #expect(paid.status == .seeOther && paid.headers[.location]?.contains("notice=paid") == true)
            #expect(try await wallet.balance(token: market.ben) == 2_000)

            // Once paid (or for the seller) the confirmation leads back to the deal.
            #expect(try await ben.get("/market/offers/\(id)/review").status == .seeOther)
            let ana = try await ListingPagesTests.browser(client, "ana")
            #expect(try await ana.get("/market/offers/\(id)/review").status == .seeOther)
        }
    }
}
