import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// Issue 39's card shop pages: the live preview names a refused size beside its field (never a false "is empty"),
/// the cart changes a quantity and says so, the designer's sales page, and the admin's review shows a template's art.
@Suite struct CardShopIssue39PagesTests {
    struct Live: Decodable {
        struct Finding: Decodable {
            var message: String
            var labelId: String
        }
        struct Refusal: Decodable {
            var field: String
            var message: String
        }
        var svg: String
        var findings: [Finding]
        var saved: Bool
        var refused: [Refusal]
    }

    static func signedIn(_ client: any TestClientProtocol, _ login: String) async throws -> PageSession {
        let browser = PageSession(client)
        _ = try await browser.submit("/login", to: "/login", ["login": login, "password": AccountsDriver.password])
        return browser
    }

    @Test(arguments: TestEngine.enabled)
    func aSizeOverTheLimitIsSaidBesideItsFieldAndTheTextStillShows(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let s = try await CardOrderTests.shopper(client, services, funds: 0)
            let browser = try await Self.signedIn(client, "sam")
            let path = "/cards/designs/\(s.design.id.uuidString.lowercased())"
            let csrf = PageSession.csrfToken(in: try await browser.get(path).text)
            // The names emptied first (kept as typed), then typed again with a size past the largest (36 pt).
            _ = try await browser.post(
                path + "/live",
                ["text-names": "", "autosave": "1", "page": "front"],
                csrf: csrf
            )
            let answer = try await browser.post(
                path + "/live",
                ["text-names": "Carla & Dev", "size-names": "99", "autosave": "1", "page": "front"],
                csrf: csrf
            )
            #expect(answer.status == .ok, "\(answer.text)")
            let live = try JSONDecoder().decode(Live.self, from: Data(answer.text.utf8))
            #expect(live.refused.map(\.field) == ["size-names"])
            #expect(live.refused.first?.message == "Pick a size from 18 to 36 pt.")
            #expect(live.svg.contains("Carla &amp; Dev"), "the preview shows what is typed")
            #expect(!live.findings.contains { $0.message.contains("is empty") }, "a filled field is never called empty")
            #expect(live.saved)
            let design = try await client.send(.get, "/v1/cards/designs/\(s.design.id)", token: s.token)
                .decode(CardDesign.self)
            let names = try #require(design.labels.first { $0.id == "names" })
            #expect(names.text == "Carla & Dev" && names.size == 28, "the text is kept, the refused size is not")
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theCartChangesAQuantityAndSaysWhatChanged(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let s = try await CardOrderTests.shopper(client, services, funds: 0)
            let line = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 24)
            )
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .sample)
            )
            let browser = try await Self.signedIn(client, "sam")
            let page = try await browser.get("/cards/cart").text
            let id = line.id.uuidString.lowercased()
            #expect(page.contains(#"id="quantity-\#(id)" name="quantity" type="number""#))
            #expect(page.components(separatedBy: #"name="quantity""#).count == 2, "a sample has no quantity to change")
            #expect(page.contains("comes off this order"), "the sample beside its prints is credited, and said")

            let changed = try await browser.post(
                "/cards/cart/items/\(id)/quantity",
                ["quantity": "50"],
                csrf: PageSession.csrfToken(in: page)
            )
            #expect(changed.headers[.location] == "/cards/cart?notice=quantity&line=\(id)")
            let after = try await browser.follow(changed).text
            #expect(after.contains("Changed: Golden Circle is now 50 cards on Linen, $2.50 each, $125.00."))

            let refused = try await browser.post(
                "/cards/cart/items/\(id)/quantity",
                ["quantity": "5000"],
                csrf: PageSession.csrfToken(in: after)
            )
            #expect(refused.headers[.location] == "/cards/cart")
            let again = try await browser.follow(refused).text
            #expect(again.contains(#"<p class="field-error" id="quantity-\#(id)-error">Order 1 to 1000 cards.</p>"#))
            #expect(again.contains(#"value="5000""#), "what was typed stays in the field")
            let cart = try await client.send(.get, "/v1/cards/cart", token: s.token).decode(CardCart.self)
            #expect(cart.items.map(\.quantity) == [50, 1])
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aDesignerFindsTheirSalesFromTheCardShopsNavigation(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine, .live) { client, services in
            let s = try await CardOrderTests.shopper(client, services)
            _ = try await CardOrderTests.add(
                client,
                s,
                CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, quantity: 30)
            )
            _ = try await CardCartAndSalesTests.orderAndPay(client, s)
            let dana = try await Self.signedIn(client, "dana")
            #expect(try await dana.get("/cards/cart").text.contains(#"<a href="/cards/studio/sales">Sales</a>"#))
            #expect(try await dana.get("/cards/studio").text.contains(#"href="/cards/studio/sales">Sales</a>"#))
            let page = try await dana.get("/cards/studio/sales").text
            #expect(page.contains("In all: $75.00 from 1 order."))
            #expect(page.contains("Golden Circle</a>") && page.contains("<td>1</td><td>30</td><td>$75.00</td>"))
            let shopper = try await Self.signedIn(client, "sam")
            #expect(!(try await shopper.get("/cards/cart").text.contains("/cards/studio/sales")))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func theAdminSeesATemplatesArtWithItsTextBeforeDeciding(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            var request = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.party,
                sub: nil,
                paper: shop.linen
            )
            request.name = "Moon Party"
            let template = try await CardsDriver.template(client, shop.designer, request: request)
            #expect(
                try await client.send(.post, "/v1/cards/templates/\(template)/submit", token: shop.designer).status
                    == .ok
            )
            let item = try #require(
                try await TrustTests.queue(client, shop.admin, .template).first { $0.subjectId == template }
            )
            let admin = try await Self.signedIn(client, AccountsDriver.admin)
            let page = try await admin.get("/admin/review/\(item.id.uuidString.lowercased())").text
            #expect(page.contains("data-review-art") && page.contains("<svg"), "the art drawn on the review")
            #expect(page.contains("<strong>Front, Ivory</strong>: The designer’s art, with “Ana &amp; Ben” (Names)"))
            #expect(page.contains("<strong>Inside, Ivory</strong>: No art, a blank page, with “With love”"))
            #expect(page.contains("/static/cards.css"), "the card fonts' style sheet")
        }
    }
}
