import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// The catalogue's Quick Look and a sample ordered straight from a template, as the pages do them.
@Suite struct CardShopPagesTests {
    @Test func quickLookShowsTheCardAndASampleIsOneTapAway() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let guest = PageSession(client)
            let grid = try await guest.get("/cards").text
            let look = "/cards/templates/\(shop.template.uuidString.lowercased())/quick-look"
            #expect(grid.contains(#"data-quick-look="\#(look)""#))
            let fragment = try await guest.get(look)
            #expect(fragment.status == .ok && !fragment.text.contains("<html"), "a fragment for the dialog")
            #expect(fragment.text.contains(">Golden Circle</h2>") && fragment.text.contains(">Ana &amp; Ben</tspan>"))
            #expect(fragment.text.contains("Log in to personalize it") && !fragment.text.contains("Sample on"))

            _ = try await AccountsDriver(client).signedIn("sam")
            let shopper = PageSession(client)
            _ = try await shopper.submit("/login", to: "/login", ["login": "sam", "password": AccountsDriver.password])
            let signedIn = try await shopper.get(look).text
            #expect(signedIn.contains("Sample on Linen · $2.00"))
            let ordered = try await shopper.post(
                "/cards/templates/\(shop.template)/sample",
                ["paperId": shop.linen.uuidString.lowercased(), "colour": ""],
                csrf: PageSession.csrfToken(in: signedIn)
            )
            #expect(ordered.headers[.location] == "/cards/cart?notice=sample")
            let token = try await AccountsDriver(client).login("sam").decode(TokenResponse.self).accessToken
            let cart = try await client.send(.get, "/v1/cards/cart", token: token).decode(CardCart.self)
            #expect(cart.items.map(\.kind) == [.sample] && cart.total == 200 + 499, "the sample and shipping")
            let designs = try await client.send(.get, "/v1/cards/designs", token: token).decode(Page<CardDesign>.self)
                .items
            #expect(designs.map(\.name) == ["Golden Circle"], "the sampled design waits in Saved designs")

            // A paper the template is not printed on: back to the template with what to do, and nothing made.
            let wrong = try await shopper.post(
                "/cards/templates/\(shop.template)/sample",
                ["paperId": UUID().uuidString],
                csrf: PageSession.csrfToken(in: signedIn)
            )
            #expect(wrong.headers[.location] == "/cards/templates/\(shop.template.uuidString.lowercased())")
            #expect(try await shopper.follow(wrong).text.contains("This card is printed on Linen: pick one of them."))
            #expect(
                try await client.send(.get, "/v1/cards/designs", token: token).decode(Page<CardDesign>.self).items.count
                    == 1
            )
        }
    }
}

extension CardShopPagesTests {
    @Test func aNewDesignerIsWalkedToTheirFirstTemplateFromHome() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let admin = try await AdminTests.admin(client, services)
            _ = try await CardsDriver.designer(client, services, "otto", admin: admin)
            let otto = PageSession(client)
            _ = try await otto.submit("/login", to: "/login", ["login": "otto", "password": AccountsDriver.password])
            let home = try await otto.get("/").text
            #expect(home.contains(#"<a class="button" href="/cards/studio/new">Start your first template</a>"#))

            let shop = try await CardsDriver.open(client, services)
            let dana = PageSession(client)
            _ = try await dana.submit("/login", to: "/login", ["login": "dana", "password": AccountsDriver.password])
            #expect(try await dana.get("/").text.contains("<p>1 in the shop</p>"), "\(shop.template)")
            _ = try await AccountsDriver(client).signedIn("sam")
            let shopper = PageSession(client)
            _ = try await shopper.submit("/login", to: "/login", ["login": "sam", "password": AccountsDriver.password])
            #expect(!(try await shopper.get("/").text.contains("data-home-studio")), "shoppers have no studio")
        }
    }
}

extension CardShopPagesTests {
    @Test(arguments: TestEngine.enabled)
    func theOrderPageShowsTheApprovedProofAndHowToPay(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await CardOrderTests.shopper(client, services, funds: 1_000)
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 25)
            )
            let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
            let order = try await CardOrderTests.order(client, s.token, proofs: [proof]).decode(CardOrder.self)
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "sam", "password": AccountsDriver.password])
            let path = "/cards/orders/\(order.id)"

            // $10.00 in the wallet, a $67.49 order: the form starts on the card and says how to pay from the wallet.
            let page = try await browser.get(path).text
            #expect(page.contains("From my Plaza wallet <span class=\"muted small\">($10.00 available)</span>"))
            #expect(
                page.contains(#"value="card" data-card-choice checked"#) && !page.contains(#"value="wallet" checked"#)
            )
            #expect(page.contains(#"<a href="/wallet/add-money">add money to your wallet</a>"#))
            let short = try await browser.post(
                path + "/pay",
                ["method": "wallet", "idempotencyKey": UUID().uuidString],
                csrf: PageSession.csrfToken(in: page)
            )
            let refused = try await browser.follow(short).text
            #expect(
                refused.contains("Your wallet holds less than this order&#39;s total")
                    || refused.contains("Your wallet holds less than this order’s total")
            )
            #expect(refused.contains(#"value="wallet" checked"#), "the refused form keeps what was chosen")

            // Paid, then the design changes: the order's line still shows the proof that prints.
            try await WalletDriver(client).fund(10_000, token: s.token)
            #expect(try await CardOrderTests.pay(client, s.token, order).status == .ok)
            let edit = CardDesignRequest(labels: [CardLabelEdit(id: "names", text: "Bartholomew & Leo")])
            #expect(
                try await client.send(.patch, "/v1/cards/designs/\(s.design.id)", json: edit, token: s.token).status
                    == .ok
            )
            let paid = try await browser.get(path).text
            let lines = try #require(
                paid.firstMatch(of: #/<ul class="list lines">(.*?)</ul>/#.dotMatchesNewlines())?.output.1
            )
            #expect(lines.contains("Mia &amp; Leo") && !lines.contains("Bartholomew"))
            #expect(paid.contains("changed since you approved it"), "and offers the new proof to approve")
        }
    }
}

extension CardShopPagesTests {
    @Test func aDesignThatStoppedFittingIsFlaggedInTheCartAndAtCheckout() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let s = try await CardOrderTests.shopper(client, services, funds: 0)
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 25)
            )
            let browser = PageSession(client)
            _ = try await browser.submit("/login", to: "/login", ["login": "sam", "password": AccountsDriver.password])
            #expect(
                try await browser.get("/cards/cart").text.contains(
                    #"<a class="button" href="/cards/checkout">Check out</a>"#
                )
            )

            let long = CardDesignRequest(labels: [
                CardLabelEdit(id: "names", text: String(repeating: "Bartholomew ", count: 12))
            ])
            #expect(
                try await client.send(.patch, "/v1/cards/designs/\(s.design.id)", json: long, token: s.token).status
                    == .ok
            )
            let cart = try await browser.get("/cards/cart").text
            #expect(cart.contains("The text of “Names” does not fit: shorten it, or make the type smaller."))
            #expect(cart.contains(#"<a href="/cards/designs/\#(s.design.id.uuidString.lowercased())">Fix it</a>"#))
            #expect(!cart.contains(#"href="/cards/checkout">Check out"#) && cart.contains("no longer prints well"))
            let checkout = try await browser.get("/cards/checkout").text
            #expect(checkout.contains("This design cannot print as it is") && !checkout.contains(#"name="approve-"#))
        }
    }
}

extension CardShopPagesTests {
    @Test func aRefusedTemplateKeepsWhatTheDesignerTypedAndSaysWhatIsWrong() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let dana = PageSession(client)
            _ = try await dana.submit("/login", to: "/login", ["login": "dana", "password": AccountsDriver.password])
            let path = "/cards/studio/\(shop.template.uuidString.lowercased())"
            let form = try await dana.get(path).text
            let art = try #require(form.firstMatch(of: #/name="art-front-0" value="([0-9a-f-]+)"/#)?.output.1)
            let refused = try await dana.post(
                path,
                [
                    "name": "Golden Circle", "category": "\(shop.wedding.uuidString.lowercased())|",
                    "trim": "127x177.8",
                    "colourName-0": "Champagne", "art-front-0": String(art),
                    "labels": #"[{"id": "names", "size": "big"}]"#,
                    "paper-\(shop.linen.uuidString.lowercased())": "on",
                ],
                csrf: PageSession.csrfToken(in: form)
            )
            let page = try await dana.follow(refused).text
            #expect(page.contains(#"name="colourName-0" value="Champagne""#), "the colour's new name is kept")
            #expect(page.contains("The labels are not JSON in the shape of the example"))
            #expect(!page.contains("The operation could not be completed"))
        }
    }
}

extension CardShopPagesTests {
    @Test func anOrderIsDescribedByWhatItHolds() {
        let item = { (name: String, kind: CardItemKind, quantity: Int) in
            CardOrderItem(
                id: UUID(),
                kind: kind,
                designId: UUID(),
                designName: name,
                paperId: UUID(),
                paperName: "Linen",
                quantity: quantity,
                unitAmount: 100,
                amount: 100,
                proofSha256: ""
            )
        }
        let circle = item("Golden Circle", .print, 50)
        #expect(CardsService.describe([circle]) == "Golden Circle (50 cards)")
        #expect(CardsService.describe([item("Olive Sprig", .print, 1)]) == "Olive Sprig (1 card)")
        #expect(
            CardsService.describe([circle, item("Olive Sprig", .sample, 1)])
                == "Golden Circle (50 cards) and Olive Sprig (sample)"
        )
        #expect(CardsService.describe([circle, circle, circle]) == "Golden Circle (50 cards) and 2 more lines")
    }
}
