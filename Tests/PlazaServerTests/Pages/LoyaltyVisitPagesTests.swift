import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// One visit on the pages (issue 39): the owner makes paying punch the card, the customer lets paying take a first
/// card, and every page that shows the payment says what it earned; the counter gives several punches at once and
/// switches between programs.
@Suite struct LoyaltyVisitPagesTests {
    func signedIn(_ client: any TestClientProtocol, _ login: String) async throws -> PageSession {
        let browser = PageSession(client)
        _ = try await browser.submit("/login", to: "/login", ["login": login, "password": AccountsDriver.password])
        return browser
    }

    @Test func payingPunchesTheCardAndEveryPageSaysSo() async throws {
        try await TestPlaza.withApp(.sqlite, .live) { client, _ in
            let (business, bruno, anna) = try await ChargeTests.counter(client, funds: 5_000)
            let id = business.id.uuidString.lowercased()
            let counter = "/loyalty/counter/\(id)"
            let owner = try await signedIn(client, "bruno")
            let fields = [
                "title": "Bread card", "punchesRequired": "4", "reward": "A loaf", "velocityWindowMinutes": "10",
                "earnOnPayment": "1", "punchPer": "five",
            ]
            let blank = try await owner.get(counter).text
            #expect(
                blank.contains(#"name="earnOnPayment""#)
                    && !blank.contains(#"aria-describedby="program-earn-hint" checked"#),
                "a new program does not punch on payment until the owner says so"
            )
            let wrong = try await owner.follow(try await owner.submit(counter, to: "\(counter)/programs", fields))
            #expect(wrong.text.contains("program-per-error"), "the amount's error sits by its field")
            let started = try await owner.follow(
                try await owner.submit(counter, to: "\(counter)/programs", fields.merging(["punchPer": "5.00"]) { $1 })
            )
            #expect(started.text.contains("Paying with Plaza punches the card, one per $5.00."))
            let programs = try await client.send(.get, "/v1/businesses/\(business.id)/loyalty-programs", token: bruno)
                .decode(Page<LoyaltyProgram>.self).items
            #expect(
                programs.map(\.earnOnPayment) == [true]
                    && programs.first?.punchesPerPurchase == .per(Money(amount: 500, currency: "USD"))
            )
            let program = try #require(programs.first)
            let editor = try await owner.get("/loyalty/programs/\(program.id.uuidString.lowercased())/edit").text
            #expect(editor.contains(#"name="earnOnPayment" value="1" aria-describedby="program-earn-hint" checked"#))
            #expect(editor.contains(#"value="5.00""#))

            // The customer lets paying take a first card.
            let customer = try await signedIn(client, "anna")
            let cards = try await customer.get("/loyalty").text
            #expect(cards.contains("Take a shop's card for me when I pay there") && !cards.contains("checked>"))
            let saved = try await customer.follow(
                try await customer.submit("/loyalty", to: "/loyalty/settings", ["cardOnPayment": "1"])
            ).text
            #expect(saved.contains("Paying a shop with a loyalty program now takes its card for you."))
            #expect(saved.contains(#"value="1" aria-describedby="card-on-payment-hint" checked"#))

            // She pays 12.00: two punches, said on the payment, its receipt, the counter and the shop's page.
            let wallet = WalletDriver(client)
            let charge = try await wallet.charge(business: business.id, customer: "anna", 1_200, token: bruno)
                .decode(Charge.self)
            #expect(try await wallet.approve(charge, token: anna).status == .ok)
            let chargeID = charge.id.uuidString.lowercased()
            let said = "+2 punches on Bread card (2 of 4)"
            #expect(try await customer.get("/wallet/activity/\(chargeID)").text.contains(said))
            #expect(try await customer.get("/wallet/receipts/\(chargeID)").text.contains(said))
            let shopPage = try await customer.get("/places/businesses/\(id)").text
            #expect(shopPage.contains("data-held-card") && shopPage.contains("Your card: 2 of 4 punches."))
            #expect(!shopPage.contains("Take this card"), "a card she holds is not offered again")
            let activity = try await owner.get(counter).text
            #expect(activity.contains("+2 punches on Bread card by paying, now 2 of 4"), "\(activity)")
            #expect(try await owner.get("/wallet/counter/\(id)").text.contains(said))
        }
    }

    @Test func theCounterGivesSeveralPunchesAndSwitchesPrograms() async throws {
        try await TestPlaza.withApp(.sqlite) { client, _ in
            let shop = try await LoyaltyTests().shop(client, punches: 5)
            let bread = try await client.send(
                .post,
                "/v1/businesses/\(shop.business.id)/loyalty-programs",
                json: LoyaltyProgramRequest(title: "Bread card", punchesRequired: 8, reward: "A loaf"),
                token: shop.owner
            ).decode(LoyaltyProgram.self)
            let anna = try await AccountsDriver(client).signedIn("anna").accessToken
            let card = try await LoyaltyTests().takeCard(client, shop.program, token: anna)

            let owner = try await signedIn(client, "bruno")
            let counter = "/loyalty/counter/\(shop.business.id.uuidString.lowercased())"
            let page = try await owner.get(counter).text
            #expect(page.contains("data-counter-switch") && page.contains(">Bread card</option>"))
            #expect(page.contains("Reward after 5 punches: A coffee."))
            let switched = try await owner.get("\(counter)?program=\(bread.id.uuidString.lowercased())").text
            #expect(switched.contains("Bread card · a new code every 30 seconds"), "staff switch the code's program")

            let fields = [
                "locationId": shop.location.id.uuidString, "program": shop.program.id.uuidString, "count": "three",
            ]
            func shown() async throws -> String {
                try await client.send(.post, "/v1/me/loyalty-cards/\(card.id)/punch-code", token: anna)
                    .decode(CustomerCode.self).code
            }
            let wrong = try await owner.follow(
                try await owner.submit(
                    counter,
                    to: "\(counter)/code",
                    fields.merging(["code": try await shown()]) { $1 }
                )
            ).text
            #expect(wrong.contains("punch-count-error"), "the count's error sits by its field")
            let three = try await owner.follow(
                try await owner.submit(
                    counter,
                    to: "\(counter)/code",
                    fields.merging(["code": try await shown(), "count": "3"]) { $1 }
                )
            ).text
            #expect(three.contains("Coffee card: +3, now 3 of 5."), "\(three)")
            #expect(three.contains("+3 punches on Coffee card, now 3 of 5"))

            let customer = try await signedIn(client, "anna")
            let cardPage = try await customer.get("/loyalty/cards/\(card.id.uuidString.lowercased())").text
            #expect(cardPage.contains(#"<span class="tag">3 punches</span>"#))
        }
    }
}
