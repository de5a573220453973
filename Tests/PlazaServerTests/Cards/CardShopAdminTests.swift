import Foundation
import HTTPTypes
import HummingbirdTesting
import PlazaCore
import PlazaTestSupport
import Testing

@testable import PlazaServer

/// What admins run in the card shop besides orders: the catalogue's categories (renamed, put in order), the papers'
/// prices, and templates sent back to their designer with a reason.
@Suite struct CardShopAdminTests {
    static func categories(_ client: any TestClientProtocol) async throws -> [CardCategory] {
        try await client.send(.get, "/v1/cards/categories").decode(Page<CardCategory>.self).items
    }

    @Test(arguments: TestEngine.enabled)
    func adminsRenameAndReorderCategoriesAndChangePrices(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let path = { (id: UUID) in "/v1/admin/cards/categories/\(id)" }
            let baby = try await CardsDriver.category(client, shop.admin, CardCategoryRequest(name: "Baby"))
            #expect(try await Self.categories(client).map(\.name) == ["Wedding", "Party", "Baby"])

            // Renamed and moved first in one change; the catalogue's chips follow.
            let moved = try await client.send(
                .patch,
                path(shop.party),
                json: CardCategoryUpdate(name: "Parties", position: 1),
                token: shop.admin
            )
            #expect(moved.status == .ok, "\(moved.text)")
            #expect(try moved.decode(CardCategory.self).name == "Parties")
            #expect(try await Self.categories(client).map(\.name) == ["Parties", "Wedding", "Baby"])
            // Past the end puts it last; a subcategory answers with its category.
            _ = try await client.send(
                .patch,
                path(shop.party),
                json: CardCategoryUpdate(position: 99),
                token: shop.admin
            )
            #expect(try await Self.categories(client).map(\.id) == [shop.wedding, baby, shop.party])
            let sub = try await client.send(
                .patch,
                path(shop.invitations),
                json: CardCategoryUpdate(name: "Invites"),
                token: shop.admin
            )
            #expect(try sub.decode(CardCategory.self).id == shop.wedding)
            #expect(try await Self.categories(client).first?.subcategories.map(\.name) == ["Invites"])
            let template = try await client.send(.get, "/v1/cards/templates/\(shop.template)").decode(CardTemplate.self)
            #expect(template.subcategoryId == shop.invitations, "its templates stay filed under it")

            // Refused, with the field at fault: a sibling's name (any case), no name, place 0, someone else, no such category.
            let taken = try await client.send(
                .patch,
                path(shop.party),
                json: CardCategoryUpdate(name: "wedding"),
                token: shop.admin
            )
            #expect(taken.status == .conflict && taken.problem?.errors?.map(\.field) == ["name"], "\(taken.text)")
            let blank = try await client.send(
                .patch,
                path(shop.party),
                json: CardCategoryUpdate(name: "  "),
                token: shop.admin
            )
            #expect(blank.status == .unprocessableContent && blank.problem?.errors?.map(\.field) == ["name"])
            let zero = try await client.send(
                .patch,
                path(shop.party),
                json: CardCategoryUpdate(position: 0),
                token: shop.admin
            )
            #expect(zero.problem?.errors?.map(\.field) == ["position"])
            #expect(
                try await client.send(
                    .patch,
                    path(shop.party),
                    json: CardCategoryUpdate(name: "X"),
                    token: shop.designer
                ).status == .forbidden
            )
            #expect(
                try await client.send(.patch, path(UUID()), json: CardCategoryUpdate(name: "X"), token: shop.admin)
                    .status == .notFound
            )
            #expect(
                try await Self.categories(client).map(\.name) == ["Wedding", "Baby", "Parties"],
                "nothing refused changed anything"
            )

            // A paper's new prices are what the template page and the cart charge from now on.
            let dearer = CardPaperRequest(
                name: "Linen",
                description: "Textured, 300 gsm",
                sampleAmount: 250,
                tiers: [
                    CardPriceTier(minQuantity: 1, unitAmount: 400), CardPriceTier(minQuantity: 50, unitAmount: 300),
                ]
            )
            #expect(
                try await client.send(.put, "/v1/admin/cards/papers/\(shop.linen)", json: dearer, token: shop.admin)
                    .status == .ok
            )
            let papers = try await client.send(.get, "/v1/cards/templates/\(shop.template)").decode(CardTemplate.self)
                .paperTypes
            #expect(papers.first?.sampleAmount == 250 && papers.first?.tiers.map(\.unitAmount) == [400, 300])
            let shopper = try await AccountsDriver(client).signedIn("sam").accessToken
            let design = try await shop.design(shopper, CardDesignRequest(templateId: shop.template))
            let line = try await client.send(
                .post,
                "/v1/cards/cart/items",
                json: CardCartItemRequest(designId: design.id, paperId: shop.linen, quantity: 30),
                token: shopper
            )
            #expect(try line.decode(CardCartItem.self).amount == 30 * 400, "30 cards are below the new 50-card tier")
        }
    }

    @Test func theConsoleRenamesMovesAndRepricesAndSendsMistakesBackToTheirRow() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            let admin = PageSession(client)
            _ = try await admin.submit(
                "/login",
                to: "/login",
                ["login": AccountsDriver.admin, "password": AccountsDriver.password]
            )
            let console = try await admin.get("/admin/cards")
            #expect(
                console.text.contains(#"aria-label="Move Party up""#)
                    && !console.text.contains(#"aria-label="Move Wedding up""#)
            )
            #expect(console.text.contains(#"value="1: 3.50, 25: 2.50""#), "the paper's form holds its tiers as typed")

            let up = try await admin.submit(
                "/admin/cards",
                to: "/admin/cards/categories/\(shop.party)",
                ["position": "1"]
            )
            #expect(up.headers[.location] == "/admin/cards?notice=category-saved#categories")
            #expect(try await Self.categories(client).map(\.name) == ["Party", "Wedding"])
            let after = try await admin.follow(up)
            #expect(after.text.contains("Category saved"))

            // A sibling's name: back to that row's form, open, with the error beside the field.
            let clash = try await admin.submit(
                "/admin/cards",
                to: "/admin/cards/categories/\(shop.party)",
                ["name": "Wedding"]
            )
            let row = try await admin.follow(clash)
            #expect(row.text.contains("There is a “Wedding” here already."))
            #expect(
                row.text.contains(#"id="rename-\#(shop.party.uuidString.lowercased())" name="name" value="Wedding""#)
            )
            let blank = try await admin.submit(
                "/admin/cards",
                to: "/admin/cards/categories/\(shop.party)",
                ["name": "  "]
            )
            #expect(
                try await admin.follow(blank).text.contains("Name it (at most 80 characters)."),
                "a blank name is refused, not saved"
            )

            let repriced = try await admin.submit(
                "/admin/cards",
                to: "/admin/cards/papers/\(shop.linen)",
                ["name": "Linen", "description": "Textured", "sampleAmount": "2.25", "tiers": "1: 3.75, 25: 2.75"]
            )
            #expect(try await admin.follow(repriced).text.contains("Paper saved: its new prices apply"))
            let page = try await PageSession(client).get("/cards/templates/\(shop.template)")
            #expect(
                page.text.contains("$3.75 each") && page.text.contains("$2.75 each") && !page.text.contains("$3.50")
            )
            let wrong = try await admin.submit(
                "/admin/cards",
                to: "/admin/cards/papers/\(shop.linen)",
                ["name": "Linen", "sampleAmount": "2.25", "tiers": "lots"]
            )
            #expect(try await admin.follow(wrong).text.contains("Write each tier as quantity: price per card"))
        }
    }

    @Test func theCatalogueFiltersByColourAndDrawsTheTileInIt() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let shop = try await CardsDriver.open(client, services)
            var party = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.party,
                sub: nil,
                paper: shop.linen
            )
            party.name = "Confetti Pop"
            party.colours = [
                CardColourRequest(name: "Ivory", art: party.colours[0].art),
                CardColourRequest(name: "Navy Blue", art: [:]),
            ]
            let confetti = try await CardsDriver.template(client, shop.designer, request: party)
            try await CardsDriver.approve(client, shop.admin, confetti, designer: shop.designer)
            let guest = PageSession(client)
            let all = try await guest.get("/cards")
            #expect(all.text.contains(#"<a href="/cards?colour=navy%20blue">Navy blue</a>"#), "\(all.text)")
            #expect(all.text.contains(#"<a href="/cards?colour=ivory">Ivory</a>"#))
            let navy = try await guest.get("/cards?colour=navy%20blue")
            #expect(navy.text.contains("Confetti Pop") && !navy.text.contains("Golden Circle"))
            let detail = try await client.send(.get, "/v1/cards/templates/\(confetti)").decode(CardTemplate.self)
            #expect(
                navy.text.contains(
                    #"href="/cards/templates/\#(confetti.uuidString.lowercased())?colour=\#(detail.colours[1].id)""#
                )
            )
            // Within a category, only its own colours are offered.
            let wedding = try await guest.get("/cards?category=\(shop.wedding)")
            #expect(!wedding.text.contains("Navy blue"))
        }
    }

    @Test(arguments: TestEngine.enabled)
    func aTemplateSentBackCarriesTheReasonAndCanBeSentAgain(_ engine: TestEngine) async throws {
        try await TestPlaza.withApp(engine) { client, services in
            let shop = try await CardsDriver.open(client, services)
            var request = try await CardsDriver.request(
                client,
                shop.designer,
                category: shop.party,
                sub: nil,
                paper: shop.linen
            )
            request.name = "Balloon Days"
            let id = try await CardsDriver.template(client, shop.designer, request: request)
            #expect(
                try await client.send(.post, "/v1/cards/templates/\(id)/submit", token: shop.designer).status == .ok
            )
            let item = try #require(
                try await TrustTests.queue(client, shop.admin, .template).first { $0.subjectId == id }
            )
            let reason = "The names sit on the balloon's string: move them 10 mm down."
            let rejected = try await client.send(
                .post,
                "/v1/admin/review-queue/\(item.id)/reject",
                json: ReviewReason(reason: reason),
                token: shop.admin
            )
            #expect(rejected.status == .ok, "\(rejected.text)")

            let seen = try await client.send(.get, "/v1/cards/templates/\(id)", token: shop.designer).decode(
                CardTemplate.self
            )
            #expect(seen.state == .rejected && seen.rejectionReason == reason)
            #expect(try await client.send(.get, "/v1/cards/templates/\(id)").status == .notFound, "not in the shop")
            #expect(try await CardCatalogueTests.browse(client, "?q=balloon").isEmpty)
            let designer = PageSession(client)
            _ = try await designer.submit(
                "/login",
                to: "/login",
                ["login": "dana", "password": AccountsDriver.password]
            )
            #expect(try await designer.get("/cards/studio").text.contains("Sent back"))
            #expect(
                try await designer.get("/cards/studio/\(id)").text.contains(
                    "An admin sent it back: \(reason)".replacingOccurrences(of: "'", with: "&#39;")
                )
            )

            // Fixed and sent again, it waits in the queue once more and can be approved.
            request.labels[0].y = 80
            #expect(
                try await client.send(.patch, "/v1/cards/templates/\(id)", json: request, token: shop.designer).status
                    == .ok
            )
            try await CardsDriver.approve(client, shop.admin, id, designer: shop.designer)
            #expect(try await CardCatalogueTests.browse(client, "?q=balloon") == ["Balloon Days"])
        }
    }
}

extension CardShopAdminTests {
    @Test func theConsolePagesThroughOlderOrders() async throws {
        try await TestPlaza.withApp(.sqlite) { client, services in
            let s = try await CardOrderTests.shopper(client, services, funds: 0)
            for _ in 0..<51 {
                _ = try await CardOrderTests.add(
                    client,
                    s,
                    CardCartItemRequest(designId: s.design.id, paperId: s.shop.linen, kind: .sample)
                )
                let proof = try await CardOrderTests.proof(client, s.token, s.design.id)
                // As a client does: a 503 (the database busy under a loaded test run) is tried again with its key.
                let key = UUID().uuidString
                var ordered = try await CardOrderTests.order(client, s.token, proofs: [proof], key: key)
                for _ in 0..<3 where ordered.status == .serviceUnavailable {
                    try await Task.sleep(for: .milliseconds(500))
                    ordered = try await CardOrderTests.order(client, s.token, proofs: [proof], key: key)
                }
                #expect(ordered.status == .created, "\(ordered.status) \(ordered.text)")
            }
            let admin = PageSession(client)
            _ = try await admin.submit(
                "/login",
                to: "/login",
                ["login": AccountsDriver.admin, "password": AccountsDriver.password]
            )
            let first = try await admin.get("/admin/cards").text
            #expect(first.components(separatedBy: "<li data-order=").count - 1 == 50)
            let more = try #require(
                first.firstMatch(of: #/href="(/admin/cards\?cursor=[^"#]+)#orders" rel="next"/#)?.output.1
            )
            let second = try await admin.get(String(more).replacingOccurrences(of: "&amp;", with: "&")).text
            #expect(
                second.components(separatedBy: "<li data-order=").count - 1 == 1 && !second.contains(#"rel="next""#)
            )
            #expect(try await admin.get("/admin/cards?cursor=nonsense").headers[.location] == "/admin/cards")
        }
    }
}
